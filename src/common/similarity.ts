/**
 * How scores are computed from dense vectors. Shared by the embed stage (the
 * invocation table names it per config), the score stage (which applies it)
 * and the paper's release bundle (each released system states its own), so it
 * sits below all three.
 */
export type Similarity = "cosine" | "dot";
