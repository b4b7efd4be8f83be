/** A partition of the queries: `group[i]` in 0..G-1 (all queries, a source, a domain, ...). */
export interface Grouping {
  group: Int32Array;
  G: number;
}
