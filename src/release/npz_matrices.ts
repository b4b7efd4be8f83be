import type { NdArray } from "./npy.ts";

/** What {@link mapReleaseMatrices} needs to know about the benchmark. */
export interface MatrixLayout {
  nQueries: number;
  nCorpus: number;
  /** Released query ids in `queries.jsonl` order: the order of the result's query rows. */
  queryIds: readonly string[];
  /** Released corpus ids in `corpus.jsonl` order: the order of the result's corpus rows. */
  corpusIds: readonly string[];
  /** The `.npz` path, for errors. */
  file: string;
}

/** The query and corpus matrices of one `.npz`, as float32 rows in benchmark order. */
export interface ReleaseMatrices {
  /** `nQueries × dims`, row-major; row i is the vector of `queryOrder[i]`. */
  queries: Float32Array;
  /** `nCorpus × dims`, row-major; row i is the vector of `corpusOrder[i]`. */
  corpus: Float32Array;
  dims: number;
  /** The id of each query row (the layout's `queryIds`). */
  queryOrder: string[];
  /** The id of each corpus row (the layout's `corpusIds`). */
  corpusOrder: string[];
  /** Which arrays of the file took which role (ids absent: rows were in file order). */
  arrayNames: { queries: string; corpus: string; queryIds?: string; corpusIds?: string };
}

type RoleName = "queries" | "corpus";

const FLOAT = /^[<>|=]f[248]$/;
const STRING = /^[<>|=][USa]\d+$/;

/** `name dtype shape` of every array, for the one-line ambiguity errors. */
export function describeArrays(arrays: Map<string, NdArray>): string {
  return [...arrays.values()].map((a) => `${a.name} ${a.dtype} (${a.shape.join(", ")})`)
    .join("; ") || "none";
}

/**
 * The role a name says, from its words: `query`, `queries`, `q` (and
 * `qry`, `question`) for queries; `corpus`, `doc`, `c` (and `docs`,
 * `document(s)`, `passage(s)`, `pool`) for the corpus; null when it says
 * neither or both. Words split at `_`, `-`, `.`, digits and camelCase.
 */
export function roleFromName(name: string): RoleName | null {
  const words = name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z]+/)
    .filter(Boolean);
  const q = words.some((w) =>
    ["q", "query", "queries", "qry", "question", "questions"].includes(w)
  );
  const c = words.some((w) =>
    ["c", "corpus", "doc", "docs", "document", "documents", "passage", "passages", "pool"]
      .includes(w)
  );
  return q === c ? null : q ? "queries" : "corpus";
}

/**
 * Pick one array per role from candidates fitting each role by shape; names
 * break a tie only when the shapes alone cannot. Throws one line listing every
 * array when the choice stays ambiguous or a role has no candidate.
 */
function assignRoles(
  fits: Record<RoleName, NdArray[]>,
  what: string,
  arrays: Map<string, NdArray>,
  file: string,
  required: boolean,
): Partial<Record<RoleName, NdArray>> {
  const ambiguous = (why: string): never => {
    throw new Error(`${file}: ${why}; arrays: ${describeArrays(arrays)}`);
  };
  const out: Partial<Record<RoleName, NdArray>> = {};
  const roles: RoleName[] = ["queries", "corpus"];
  const same = fits.queries.length === fits.corpus.length &&
    fits.queries.every((a, i) => a === fits.corpus[i]);
  for (const role of roles) {
    let cands = fits[role];
    // An array fitting both roles by shape can be told apart only by its name.
    if (cands.length > 1 || (same && cands.length > 0)) {
      cands = cands.filter((a) => roleFromName(a.name) === role);
      if (cands.length !== 1) {
        ambiguous(
          `cannot tell which ${what} is the ${role} one (${
            fits[role].map((a) => a.name).join(", ")
          })`,
        );
      }
    }
    if (cands.length === 1) out[role] = cands[0];
    else if (required) {
      ambiguous(
        `no ${what} for the ${role} (${role === "queries" ? "n_queries" : "n_corpus"} rows)`,
      );
    }
  }
  if (out.queries && out.queries === out.corpus) {
    ambiguous(`${what} ${out.queries.name} fits both roles`);
  }
  return out;
}

/**
 * Map the arrays of a released `.npz` to the query and corpus matrices: a
 * float matrix of n_queries × d and one of n_corpus × d (any float width,
 * returned as float32), and optionally 1-D string arrays of their ids. With
 * ids, rows are reordered to `queryIds` / `corpusIds`; without, the file's
 * rows are taken to follow them. Other arrays are ignored. One-line errors
 * name the file: an ambiguous layout (listing every array's name, dtype and
 * shape), an unknown, missing or repeated id, dims that differ, or a
 * non-finite value (the score stage cannot rank it).
 */
export function mapReleaseMatrices(
  arrays: Map<string, NdArray>,
  layout: MatrixLayout,
): ReleaseMatrices {
  const { nQueries, nCorpus, queryIds, corpusIds, file } = layout;
  if (queryIds.length !== nQueries || corpusIds.length !== nCorpus) {
    throw new Error(
      `${file}: ${queryIds.length} query ids and ${corpusIds.length} corpus ids given for ${nQueries} × ${nCorpus}`,
    );
  }
  const all = [...arrays.values()];
  const floats = all.filter((a) => FLOAT.test(a.dtype) && a.shape.length === 2);
  const strings = all.filter((a) => STRING.test(a.dtype) && a.shape.length === 1);
  const matrices = assignRoles(
    {
      queries: floats.filter((a) => a.shape[0] === nQueries),
      corpus: floats.filter((a) => a.shape[0] === nCorpus),
    },
    "float matrix",
    arrays,
    file,
    true,
  ) as Record<RoleName, NdArray>;
  const ids = assignRoles(
    {
      queries: strings.filter((a) => a.shape[0] === nQueries),
      corpus: strings.filter((a) => a.shape[0] === nCorpus),
    },
    "id array",
    arrays,
    file,
    false,
  );
  const dims = matrices.queries.shape[1];
  if (matrices.corpus.shape[1] !== dims) {
    throw new Error(
      `${file}: ${matrices.queries.name} has ${dims} dims but ${matrices.corpus.name} has ${
        matrices.corpus.shape[1]
      }; arrays: ${describeArrays(arrays)}`,
    );
  }
  if (dims === 0) throw new Error(`${file}: the matrices have 0 dims`);
  const queries = rowsInOrder(matrices.queries, ids.queries, queryIds, dims, file);
  const corpus = rowsInOrder(matrices.corpus, ids.corpus, corpusIds, dims, file);
  const names: ReleaseMatrices["arrayNames"] = {
    queries: matrices.queries.name,
    corpus: matrices.corpus.name,
  };
  if (ids.queries) names.queryIds = ids.queries.name;
  if (ids.corpus) names.corpusIds = ids.corpus.name;
  return {
    queries,
    corpus,
    dims,
    queryOrder: [...queryIds],
    corpusOrder: [...corpusIds],
    arrayNames: names,
  };
}

/** The matrix's rows as float32 in `order`, placed by the id array when there is one. */
function rowsInOrder(
  matrix: NdArray,
  idArray: NdArray | undefined,
  order: readonly string[],
  dims: number,
  file: string,
): Float32Array {
  const src = matrix.data as Float32Array | Float64Array;
  const out = new Float32Array(order.length * dims);
  // fileRow[i]: the file row holding the vector of order[i].
  const fileRow = new Int32Array(order.length);
  if (idArray) {
    const slot = new Map<string, number>();
    order.forEach((id, i) => slot.set(id, i));
    fileRow.fill(-1);
    (idArray.data as string[]).forEach((id, r) => {
      const i = slot.get(id);
      if (i === undefined) {
        throw new Error(`${file}: ${idArray.name}[${r}] = ${id} is not a benchmark id`);
      }
      if (fileRow[i] >= 0) throw new Error(`${file}: ${idArray.name} repeats id ${id}`);
      fileRow[i] = r;
    });
    const missing = fileRow.indexOf(-1);
    if (missing >= 0) throw new Error(`${file}: ${idArray.name} lacks id ${order[missing]}`);
  } else fileRow.forEach((_, i) => fileRow[i] = i);
  for (let i = 0; i < order.length; i++) {
    const r = fileRow[i];
    const row = src.subarray(r * dims, (r + 1) * dims);
    out.set(row, i * dims);
    for (let k = 0; k < dims; k++) {
      if (!Number.isFinite(out[i * dims + k])) {
        const why = Number.isFinite(row[k]) ? " after rounding to float32" : "";
        throw new Error(
          `${file}: ${matrix.name} row ${r} (id ${order[i]}) has a non-finite value${why}`,
        );
      }
    }
  }
  return out;
}

/** Counts of one matrix that `tests/embedding_summary.json` may state. */
interface MatrixCounts {
  shape: number[];
  finite: number;
  nonFinite: number;
  zeroNorm: number;
}

/** Shape, finite values, non-finite values and zero-norm rows of a float matrix. */
export function matrixCounts(a: NdArray): MatrixCounts {
  const data = a.data as Float32Array | Float64Array;
  const cols = a.shape.length === 2 ? a.shape[1] : data.length;
  const rows = cols === 0 ? 0 : data.length / cols;
  let finite = 0, zeroNorm = 0;
  for (let r = 0; r < rows; r++) {
    let sum = 0, rowFinite = true;
    for (let k = r * cols; k < (r + 1) * cols; k++) {
      const x = data[k];
      if (Number.isFinite(x)) {
        finite++;
        sum += x * x;
      } else rowFinite = false;
    }
    if (rowFinite && sum === 0) zeroNorm++;
  }
  return { shape: a.shape, finite, nonFinite: data.length - finite, zeroNorm };
}

/** Keys the summary may use per count (the release does not document its spelling). */
const COUNT_KEYS: Record<keyof Omit<MatrixCounts, "shape">, string[]> = {
  finite: ["finite", "n_finite", "num_finite", "finite_count", "finite_values", "n_finite_values"],
  nonFinite: [
    "non_finite",
    "nonfinite",
    "n_non_finite",
    "n_nonfinite",
    "non_finite_count",
    "nonfinite_count",
    "non_finite_values",
  ],
  zeroNorm: [
    "zero_norm",
    "zero_norms",
    "n_zero_norm",
    "num_zero_norm",
    "zero_norm_count",
    "zero_norm_rows",
    "n_zero_norm_rows",
  ],
};

const ROLE_KEYS: Record<RoleName, string[]> = {
  queries: ["queries", "query", "q", "query_embeddings", "queries_embeddings"],
  corpus: ["corpus", "docs", "doc", "documents", "c", "corpus_embeddings", "doc_embeddings"],
};

/**
 * Check a file's `tests/embedding_summary.json` entry against its arrays:
 * every stated shape, finite-value, non-finite-value and zero-norm count
 * must equal what the arrays hold. The entry describes each matrix under its
 * array name or a role key (`queries`/`corpus`, resolved through `roles`),
 * either as a nested object (`{"queries": {"shape": [...], "zero_norm": 0}}`)
 * or as flat `<key>_<field>` fields (`query_shape`, `corpus_zero_norm`).
 * An entry that states nothing checkable is an error (a misspelt summary must
 * not pass silently). Throws one line naming the file and the array.
 */
export function checkEmbeddingSummary(
  summaryEntry: unknown,
  arrays: Map<string, NdArray>,
  file: string,
  roles?: { queries: string; corpus: string },
): void {
  if (!summaryEntry || typeof summaryEntry !== "object" || Array.isArray(summaryEntry)) {
    throw new Error(`${file}: embedding_summary entry is not an object`);
  }
  // Per-array facts may sit under an `arrays` (or `matrices`) object.
  const outer = summaryEntry as Record<string, unknown>;
  const nested = [outer.arrays, outer.matrices].find((v) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
  ) as Record<string, unknown> | undefined;
  const entry = nested ? { ...outer, ...nested } : outer;
  const targets = new Map<string, string>(); // summary key → array name
  for (const name of arrays.keys()) targets.set(name, name);
  if (roles) {
    for (const role of ["queries", "corpus"] as const) {
      for (const key of ROLE_KEYS[role]) if (!targets.has(key)) targets.set(key, roles[role]);
    }
  }
  let checked = 0;
  for (const [key, arrayName] of targets) {
    const stated = statedCounts(entry, key);
    if (!stated) continue;
    const a = arrays.get(arrayName)!;
    if (!FLOAT.test(a.dtype)) continue;
    const actual = matrixCounts(a);
    const bad = (field: string, want: unknown, got: unknown): never => {
      throw new Error(
        `${file}: array ${arrayName} has ${field} ${JSON.stringify(got)}, embedding_summary says ${
          JSON.stringify(want)
        }`,
      );
    };
    if (stated.shape !== undefined) {
      checked++;
      if (JSON.stringify(stated.shape) !== JSON.stringify(actual.shape)) {
        bad("shape", stated.shape, actual.shape);
      }
    }
    for (const field of ["finite", "nonFinite", "zeroNorm"] as const) {
      const want = stated[field];
      if (want === undefined) continue;
      checked++;
      if (want !== actual[field]) bad(COUNT_KEYS[field][0], want, actual[field]);
    }
    if (stated.allFinite !== undefined) {
      checked++;
      if (stated.allFinite !== (actual.nonFinite === 0)) {
        bad("all_finite", stated.allFinite, actual.nonFinite === 0);
      }
    }
  }
  if (checked === 0) {
    throw new Error(
      `${file}: embedding_summary entry states no shape or count for any array (keys: ${
        Object.keys(entry).join(", ")
      }; arrays: ${describeArrays(arrays)})`,
    );
  }
}

interface StatedCounts {
  shape?: number[];
  finite?: number;
  nonFinite?: number;
  zeroNorm?: number;
  allFinite?: boolean;
}

/** What the entry states about `key`: nested under it, or as flat `<key>_<field>` fields. */
function statedCounts(entry: Record<string, unknown>, key: string): StatedCounts | null {
  const nested = entry[key];
  const singular = key.endsWith("ies") ? key.slice(0, -3) + "y" : key;
  const get = (field: string): unknown => {
    if (nested && typeof nested === "object" && !Array.isArray(nested)) {
      const v = (nested as Record<string, unknown>)[field];
      if (v !== undefined) return v;
    }
    return entry[`${key}_${field}`] ?? entry[`${singular}_${field}`];
  };
  const out: StatedCounts = {};
  const shape = Array.isArray(nested) ? nested : get("shape");
  if (Array.isArray(shape)) out.shape = shape as number[];
  for (const field of ["finite", "nonFinite", "zeroNorm"] as const) {
    for (const k of COUNT_KEYS[field]) {
      const v = get(k);
      if (typeof v === "number") {
        out[field] = v;
        break;
      }
    }
  }
  const allFinite = get("all_finite");
  if (typeof allFinite === "boolean") out.allFinite = allFinite;
  return Object.keys(out).length ? out : null;
}
