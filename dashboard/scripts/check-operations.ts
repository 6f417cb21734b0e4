import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { formatDocument } from '@urql/core';
import {
  Kind,
  buildSchema,
  parse,
  print,
  validate,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import { ARMOR } from '../../src/graphql/yoga.js';

/**
 * Every `graphql(`…`)` document of the dashboard, validated against `schema.graphql` with the
 * GraphQL spec's rules (unknown fields and arguments, wrong argument and variable types, missing
 * required arguments). gql.tada types the results in `tsc -p dashboard`; this catches what a type
 * cannot (a removed field types as unknown instead of failing). A failure names file and operation.
 * The server's graphql-armor limits (ARMOR in src/graphql/yoga.ts: cost, depth, aliases, tokens)
 * are checked on the document as urql sends it, so a page never ships a query the server refuses.
 */
const root = new URL('../../', import.meta.url);
const srcDir = new URL('dashboard/src/', root);
const DOCUMENT = /\bgraphql\(\s*`([^`]*)`/g;

type Found = { file: string; definition: DefinitionNode };
export type OperationsReport = { operations: number; fragments: number; problems: string[]; costs: Map<string, number> };

function documentsIn(file: string): Found[] {
  const text = readFileSync(new URL(file, srcDir), 'utf8');
  return [...text.matchAll(DOCUMENT)].flatMap((m) => parse(m[1] ?? '').definitions.map((definition) => ({ file, definition })));
}

/** The dashboard's documents, by kind; duplicate or anonymous definitions are problems already. */
function collect(problems: string[]) {
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f) && !f.startsWith('generated'));
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations: { file: string; node: OperationDefinitionNode }[] = [];
  for (const { file, definition } of files.flatMap(documentsIn)) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      if (fragments.has(definition.name.value)) problems.push(`${file}: fragment ${definition.name.value} is defined twice`);
      fragments.set(definition.name.value, definition);
    } else if (definition.kind === Kind.OPERATION_DEFINITION) {
      if (!definition.name) problems.push(`${file}: an operation without a name`);
      operations.push({ file, node: definition });
    }
  }
  return { fragments, operations };
}

function spreadsOf(node: DefinitionNode, fragments: Map<string, FragmentDefinitionNode>, into = new Set<string>()): Set<string> {
  visit(node, {
    FragmentSpread(spread) {
      const name = spread.name.value;
      const fragment = fragments.get(name);
      const seen = into.has(name);
      into.add(name);
      if (!seen && fragment) spreadsOf(fragment, fragments, into);
    },
  });
  return into;
}

type RuleFactory = (options: Record<string, unknown>) => ValidationRule;

/** graphql-armor's own rules, resolved through the package the server uses, reporting instead of throwing. */
function armorLimits(onReject: (message: string) => void, onCost: (n: number) => void): ValidationRule[] {
  const armor = createRequire(createRequire(import.meta.url).resolve('@escape.tech/graphql-armor'));
  const { costLimitRule } = armor('@escape.tech/graphql-armor-cost-limit') as { costLimitRule: RuleFactory };
  const { maxDepthRule } = armor('@escape.tech/graphql-armor-max-depth') as { maxDepthRule: RuleFactory };
  const { maxAliasesRule } = armor('@escape.tech/graphql-armor-max-aliases') as { maxAliasesRule: RuleFactory };
  const reject = [(_ctx: unknown, error: Error) => onReject(error.message)];
  return [
    costLimitRule({ maxCost: ARMOR.maxCost, propagateOnRejection: false, onReject: reject, onAccept: [(_ctx: unknown, { n }: { n: number }) => onCost(n)] }),
    maxDepthRule({ n: ARMOR.maxDepth, propagateOnRejection: false, onReject: reject }),
    maxAliasesRule({ n: ARMOR.maxAliases, propagateOnRejection: false, onReject: reject }),
  ];
}

export function checkOperations(schemaSdl: string): OperationsReport {
  const schema = buildSchema(schemaSdl);
  const problems: string[] = [];
  const costs = new Map<string, number>();
  const { fragments, operations } = collect(problems);
  let refusals: string[] = [];
  let cost = 0;
  const limits = armorLimits(
    (message) => refusals.push(message),
    (n) => (cost = n),
  );
  const names = new Set<string>();
  for (const { file, node } of operations) {
    const name = node.name?.value ?? '(anonymous)';
    if (names.has(name)) problems.push(`${file}: operation ${name} is defined twice`);
    names.add(name);
    const used = [...spreadsOf(node, fragments)].map((n) => fragments.get(n)).filter((f): f is FragmentDefinitionNode => f !== undefined);
    const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [node, ...used] };
    const errors = validate(schema, document);
    for (const error of errors) problems.push(`${file}: ${name}: ${error.message}`);
    if (errors.length > 0) continue;
    // As sent: urql's document cache adds __typename to every selection, and that costs too.
    const sent = formatDocument(document);
    refusals = [];
    cost = 0;
    validate(schema, sent, limits);
    try {
      parse(print(sent), { maxTokens: ARMOR.maxTokens });
    } catch (error) {
      refusals.push((error as Error).message);
    }
    for (const message of refusals) problems.push(`${file}: ${name}: ${message}`);
    costs.set(name, Math.round(cost));
  }
  return { operations: operations.length, fragments: fragments.size, problems, costs };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = checkOperations(readFileSync(new URL('schema.graphql', root), 'utf8'));
  if (process.argv.includes('--costs')) for (const [name, n] of report.costs) console.log(`${name} ${n}`);
  if (report.problems.length > 0) {
    console.error(`dashboard: ${report.problems.length} problem(s) with schema.graphql or the server's limits:\n  ${report.problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`dashboard: ${report.operations} operations and ${report.fragments} fragments fit schema.graphql and the server's limits`);
}
