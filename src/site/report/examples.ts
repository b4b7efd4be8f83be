/** Example queries of the SQL console, each runnable with one click. */
export interface ExampleQuery {
  title: string;
  sql: string;
}

export const EXAMPLE_QUERIES: ExampleQuery[] = [
  {
    title: "exec@k of every config",
    sql: "SELECT config, k, round(value, 3) AS exec, round(ci_low, 3) AS ci_low, " +
      "round(ci_high, 3) AS ci_high\nFROM metrics WHERE metric = 'exec'\nORDER BY config, k",
  },
  {
    title: "Rank-1 misses by cause",
    sql: "SELECT config, CASE WHEN own_task THEN bug_type ELSE 'other task' END AS cause, " +
      "count(*) AS misses\nFROM rankings\nWHERE rank = 1 AND NOT (label = 'correct' AND own_task)\n" +
      "GROUP BY ALL ORDER BY config, misses DESC",
  },
  {
    title: "Distractors per bug type",
    sql: "SELECT bug_type, count(*) AS distractors\nFROM corpus WHERE label = 'incorrect'\n" +
      "GROUP BY bug_type ORDER BY distractors DESC",
  },
  {
    title: "Significant pairs (Holm, exec@1)",
    sql: "SELECT config_a, config_b, round(delta, 3) AS delta, a_only, b_only, p_holm\n" +
      "FROM pairwise WHERE metric = 'exec' AND k = 1\nORDER BY p_holm",
  },
  {
    title: "Rejects by reason",
    sql: "SELECT stage, reason, count(*) AS n\nFROM rejects GROUP BY stage, reason ORDER BY n DESC",
  },
];
