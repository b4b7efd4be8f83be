import type { Node } from "web-tree-sitter";
import { loadPythonParser } from "../common/python_parser.ts";

/**
 * Python syntax helpers for the task sources, on tree-sitter (web-tree-sitter
 * + the tree-sitter-python grammar wasm). Node offsets are UTF-16 string
 * indices, so `code.slice(node.startIndex, node.endIndex)` is the node's text.
 *
 * tree-sitter is a syntax gate only: it accepts a little that CPython rejects
 * (Python 2 `print x`, mixed tab/space indentation). The execution oracle is
 * the final judge; this catches the inputs that are not Python at all.
 */
export interface PythonSyntax {
  /** Parse `code` and hand the root node to `use`; the tree is freed afterwards. */
  withTree<T>(code: string, use: (root: Node) => T): T;
  /** `null` when `code` parses, else `"line N"` of the first syntax error (1-based). */
  syntaxError(code: string): string | null;
  /** Names of the functions defined at module level (decorated ones too), in order. */
  topLevelFunctions(code: string): string[];
  /** Number of module-level statements (comments excluded). */
  statementCount(code: string): number;
  /** Plain names called (`name(...)`) anywhere in `code`, first occurrence order, with counts. */
  calledNames(code: string): Map<string, number>;
  /**
   * Names `code` binds at module level (functions, classes, assignment
   * targets, imports); `null` when a `from m import *` makes that unknowable.
   */
  boundNames(code: string): Set<string> | null;
  /**
   * Names `code` reads while it runs at module level, in first-use order:
   * everything outside function bodies and lambdas, which run only when called.
   */
  eagerNames(code: string): string[];
}

let loading: Promise<PythonSyntax> | undefined;

/** The shared Python parser, loaded once per process. */
export function pythonSyntax(): Promise<PythonSyntax> {
  loading ??= load();
  return loading;
}

async function load(): Promise<PythonSyntax> {
  // One tree-sitter parser per process, shared with the mutation engine.
  const parser = await loadPythonParser();

  const withTree = <T>(code: string, use: (root: Node) => T): T => {
    const tree = parser.parse(code);
    try {
      return use(tree.rootNode);
    } finally {
      tree.delete();
    }
  };

  // Sources ask several questions of the same text (a canonical is checked
  // for errors, its functions listed twice): parse each text once.
  const cache = new Map<string, Analysis>();
  const analyze = (code: string): Analysis => {
    let found = cache.get(code);
    if (found) return found;
    found = withTree(code, (root) => {
      const bad = root.hasError ? firstError(root) ?? root : null;
      const called = new Map<string, number>();
      for (const call of root.descendantsOfType("call")) {
        const fn = call?.childForFieldName("function");
        if (fn?.type === "identifier") called.set(fn.text, (called.get(fn.text) ?? 0) + 1);
      }
      return {
        error: bad ? `line ${bad.startPosition.row + 1}` : null,
        functions: moduleFunctions(root),
        bound: moduleBindings(root),
        eager: eagerIdentifiers(root),
        statements: root.namedChildren.filter((n) => n && n.type !== "comment").length,
        called,
      };
    });
    if (cache.size >= 50_000) cache.clear();
    cache.set(code, found);
    return found;
  };

  return {
    withTree,
    syntaxError: (code) => analyze(code).error,
    topLevelFunctions: (code) => [...analyze(code).functions],
    statementCount: (code) => analyze(code).statements,
    calledNames: (code) => new Map(analyze(code).called),
    boundNames: (code) => {
      const bound = analyze(code).bound;
      return bound ? new Set(bound) : null;
    },
    eagerNames: (code) => [...analyze(code).eager],
  };
}

interface Analysis {
  error: string | null;
  functions: string[];
  statements: number;
  called: Map<string, number>;
  bound: string[] | null;
  eager: string[];
}

/** The first ERROR or MISSING node in document order. */
function firstError(node: Node): Node | null {
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    if (child && child.hasError) {
      const found = firstError(child);
      if (found) return found;
    }
    if (child && (child.isError || child.isMissing)) return child;
  }
  return null;
}

/** The function definition a module-level statement holds, unwrapping decorators. */
export function definitionOf(statement: Node): Node | null {
  if (statement.type === "function_definition") return statement;
  if (statement.type === "decorated_definition") {
    const def = statement.childForFieldName("definition");
    return def?.type === "function_definition" ? def : null;
  }
  return null;
}

function moduleFunctions(root: Node): string[] {
  const names: string[] = [];
  for (const statement of root.namedChildren) {
    const def = statement && definitionOf(statement);
    const name = def?.childForFieldName("name")?.text;
    if (name) names.push(name);
  }
  return names;
}

function moduleBindings(root: Node): string[] | null {
  const names: string[] = [];
  const targets = (node: Node | null) => {
    if (!node) return;
    if (node.type === "identifier") names.push(node.text);
    else if (/pattern|list|tuple/.test(node.type)) node.namedChildren.forEach((c) => targets(c));
  };
  for (const statement of root.namedChildren) {
    if (!statement) continue;
    const def = statement.type === "decorated_definition"
      ? statement.childForFieldName("definition")
      : statement;
    if (def?.type === "function_definition" || def?.type === "class_definition") {
      names.push(def.childForFieldName("name")?.text ?? "");
    } else if (statement.type === "expression_statement") {
      for (const expr of statement.namedChildren) {
        // a = b = 1 nests assignments on the right.
        let a: Node | null = expr;
        while (a?.type === "assignment" || a?.type === "augmented_assignment") {
          targets(a.childForFieldName("left"));
          a = a.childForFieldName("right");
        }
      }
    } else if (statement.type === "import_statement") {
      for (const name of statement.childrenForFieldName("name")) {
        if (name?.type === "aliased_import") {
          names.push(name.childForFieldName("alias")?.text ?? "");
        } else if (name) names.push(name.text.split(".")[0]);
      }
    } else if (statement.type === "import_from_statement") {
      if (statement.namedChildren.some((c) => c?.type === "wildcard_import")) return null;
      for (const name of statement.childrenForFieldName("name")) {
        if (name?.type === "aliased_import") {
          names.push(name.childForFieldName("alias")?.text ?? "");
        } else if (name) names.push(name.text.split(".").at(-1)!);
      }
    }
  }
  return names;
}

function eagerIdentifiers(root: Node): string[] {
  const seen = new Set<string>();
  const visit = (node: Node) => {
    if (node.type === "lambda") return;
    if (node.type === "function_definition") {
      // Decorators, defaults and annotations run at definition time; the body
      // does not, and the function's and its parameters' names are bound, not read.
      for (const child of node.namedChildren) {
        if (!child || child.type === "block" || child.type === "identifier") continue;
        if (child.type === "parameters") {
          for (const p of child.namedChildren) {
            for (const field of ["value", "type"]) {
              const part = p?.childForFieldName(field);
              if (part) visit(part);
            }
          }
        } else visit(child);
      }
      return;
    }
    if (node.type === "identifier") {
      const parent = node.parent;
      const isAttribute = parent?.type === "attribute" &&
        parent.childForFieldName("attribute")?.equals(node);
      const isKeyword = parent?.type === "keyword_argument" &&
        parent.childForFieldName("name")?.equals(node);
      if (!isAttribute && !isKeyword) seen.add(node.text);
      return;
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return [...seen];
}

/**
 * Text of `node` with every reference to the variable `from` renamed to `to`:
 * identifier nodes only, so string contents, attribute names (`x.from`) and
 * keyword-argument names (`f(from=1)`) stay as they are.
 */
export function renameIdentifier(node: Node, from: string, to: string): string {
  const text = node.text;
  const base = node.startIndex;
  const edits: number[] = [];
  for (const id of node.descendantsOfType("identifier")) {
    if (!id || id.text !== from) continue;
    const parent = id.parent;
    if (parent?.type === "attribute" && parent.childForFieldName("attribute")?.equals(id)) continue;
    if (parent?.type === "keyword_argument" && parent.childForFieldName("name")?.equals(id)) {
      continue;
    }
    edits.push(id.startIndex - base);
  }
  let out = "";
  let at = 0;
  for (const start of edits) {
    out += text.slice(at, start) + to;
    at = start + from.length;
  }
  return out + text.slice(at);
}

/**
 * The docstring of a function definition: the first statement of its body that
 * is a lone string literal, skipping leading imports (HumanEval/115 has
 * `import math` before its docstring). The literal's value, unquoted; `null`
 * when there is none.
 */
export function functionDocstring(def: Node): string | null {
  const body = def.childForFieldName("body");
  if (!body) return null;
  for (const statement of body.namedChildren) {
    if (!statement || statement.type === "comment") continue;
    if (statement.type === "import_statement" || statement.type === "import_from_statement") {
      continue;
    }
    if (statement.type !== "expression_statement" || statement.namedChildCount !== 1) return null;
    const literal = statement.namedChild(0);
    if (literal?.type !== "string") return null;
    return stringValue(literal);
  }
  return null;
}

/** The raw contents of a string literal node: the text between its quotes. */
function stringValue(literal: Node): string {
  const start = literal.namedChildren.find((c) => c?.type === "string_start");
  const end = literal.namedChildren.find((c) => c?.type === "string_end");
  if (!start || !end) return literal.text;
  return literal.text.slice(
    start.endIndex - literal.startIndex,
    end.startIndex - literal.startIndex,
  );
}
