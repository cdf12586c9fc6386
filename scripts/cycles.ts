/**
 * Import cycles inside src/: reads every product file's imports (tests
 * excluded) with the TypeScript parser, finds the strongly connected
 * components of the import graph and fails on any that is not allowed below.
 * Type-only imports count: a type cycle is still two files that cannot be read
 * apart. Run by `npm run lint` (npx tsx scripts/cycles.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Cycles left for now, each in an area another change is reworking (issue 29):
 * the files of the whole strongly connected component, relative to src/. A
 * cycle that grows, shrinks or changes fails until this list is updated; one
 * that is gone is reported, so its entry can go too.
 */
const ALLOWED: string[][] = [];

const ROOT = path.resolve(import.meta.dirname, '..', 'src');
const SOURCE = /\.(ts|tsx|mts|mjs)$/;
const SKIP = /(\.test\.tsx?|\.d\.ts)$/;

/** Every product source file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' ? [] : sources(p);
    return SOURCE.test(name) && !SKIP.test(name) ? [p] : [];
  });
}

/** The file a relative specifier names, or null (a package, or outside src/). */
function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec);
  const tries = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  const hit = tries.find((p) => p.startsWith(ROOT) && isFile(p) && SOURCE.test(p));
  return hit ?? null;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The relative specifiers a file imports: static, re-exported, dynamic, and in type positions. */
function specifiers(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      out.push(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      out.push(node.arguments[0].text);
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      out.push(node.argument.literal.text);
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

/** The import graph: file → the files it imports. */
export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const to = specifiers(f)
      .map((s) => resolve(f, s))
      .filter((t): t is string => t !== null && t !== f);
    graph.set(f, [...new Set(to)]);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), each sorted. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) out.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return out;
}

function main(): number {
  const found = cycles(importGraph(sources(ROOT))).map((c) => c.map((f) => path.relative(ROOT, f)));
  const key = (c: string[]) => c.join(' ');
  const allowed = new Set(ALLOWED.map((c) => key([...c].sort())));
  const bad = found.filter((c) => !allowed.has(key(c)));
  const stale = ALLOWED.filter((c) => !found.some((f) => key(f) === key([...c].sort())));
  for (const c of found)
    console.log(`${allowed.has(key(c)) ? 'allowed' : 'CYCLE'}: ${c.join(' ↔ ')}`);
  for (const c of stale)
    console.log(`no longer a cycle (remove it from ALLOWED): ${c.join(' ↔ ')}`);
  if (!bad.length) console.log(`import cycles in src/: none outside the ${ALLOWED.length} allowed`);
  return bad.length ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main();
