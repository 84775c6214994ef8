/**
 * What one GraphQL document may ask for, as a validation rule: a document over a limit is refused
 * before any resolver runs. The limits are depth, cost, aliases, and how many times it calls each
 * resolver that does real work.
 *
 * Cost counts every field once, multiplied by the page size of the lists above it (the `first`
 * argument, else the list's usual size), so one request cannot ask for the whole database.
 * Introspection is counted the same way, its lists sized from the schema itself.
 *
 * The walk is linear in the document's size: a fragment is measured once however often it is
 * spread, and the walk stops at the first limit exceeded. (Measuring every spread again would let an
 * 818-byte document of fragments spreading the one before twice keep the API busy for seconds.)
 *
 * Hand-written because neither library measures what these limits measure. graphql-armor's cost limit
 * (8 packages, 452 KB, beyond yoga's) is linear too, but scores fields by depth (256 scalar fields under
 * 8 levels of fragments: 1,243,117) with no page size from `first`, no sizes for introspection and no
 * per-resolver call counts. @pothos/plugin-complexity takes `first` as a multiplier, but walks no
 * introspection selection: 1,000 aliased `__schema { types { fields { … } } }` (24 KB) scored 1,000 at
 * depth 1, and it counts no resolver's calls either.
 */
import {
  type ASTVisitor,
  BREAK,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLField,
  GraphQLList,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  TypeMetaFieldDef,
  type ValidationContext,
} from 'graphql';

export const MAX_DEPTH = 8;
/** GraphiQL's full introspection of this schema (105 types) costs about 55,000: the limit lets it through, once. */
export const MAX_COST = 60_000;
/** Aliased fields in one document: the dashboard's widest query (isolation readings) has 40. */
export const MAX_ALIASES = 100;
/** Lexical tokens in one document, counted before it is parsed: the dashboard's largest has about 1,000. */
export const MAX_TOKENS = 5_000;
/**
 * graphql's own budget for checking that fields selected under one name can be merged
 * (OverlappingFieldsCanBeMergedRule: about two steps per pair of same-named fields, so 707 copies of a
 * field fit and 708 do not). graphql does not export it, and past it answers a bare `Validation aborted.`,
 * which `apps/api/src/http/document-guard.ts` words as this limit.
 */
export const MAX_MERGE_STEPS = 500_000;
/**
 * Resolvers that open tables, scan data or read every stored race, by schema coordinate: how many
 * times one request may call each (every alias and fragment spread counts). Before this, 100 aliased
 * `tableLayout` took 45 s and 1,000 aliased `isolationMatrix` 27.5 s, without a token.
 */
export const PER_REQUEST: Readonly<Record<string, number>> = {
  'Query.tableLayout': 1,
  'Query.predictConflict': 1,
  'Query.measuredOutcome': 1,
  'Query.tableHistory': 1,
  'Query.isolationMatrix': 1,
  'Mutation.auditTables': 1,
  'Mutation.auditJobs': 1,
  'Mutation.auditCode': 1,
  'Mutation.probeStore': 1,
};
/** How many items a list without `first` is taken to hold: runs ≤ 50, writers ≤ 8, a table's files. */
const LIST_SIZES: Record<string, number> = {
  runs: 50,
  writers: 8,
  files: 200,
  edges: 1,
  partitionValues: 2,
  tripsOnDay: 4,
  tipDeltaByVendor: 4,
  appends: 3,
  // Sweeps: `last` pages them (at most 50, counted as such whatever is asked); points per sweep, bars per point.
  sweeps: 50,
  points: 16,
  histogram: 16,
};
const LIST_SIZE = 10;
/** The largest page a client may ask for (`first`), assumed when it comes in a variable. */
const MAX_PAGE = 100;

interface Measure {
  depth: number;
  cost: number;
  /** Calls of the PER_REQUEST resolvers, by coordinate. */
  calls: Map<string, number>;
}

export interface DocumentMeasure {
  /** The first limit the document exceeds, worded for the client; null when it is within every limit. */
  excess: string | null;
  /** The costliest operation's depth and cost; lower bounds when the walk stopped at an excess. */
  depth: number;
  cost: number;
  /** Selections examined: the walk's work, linear in the document's size. */
  visits: number;
}

/** Thrown to stop the walk at the first limit exceeded. */
class Excess extends Error {}

const EMPTY: Measure = { depth: 0, cost: 0, calls: new Map() };

/**
 * The size of each introspection list, from the schema. A type's lists are averaged over all the
 * types, so `__schema { types { fields { … } } }` counts the schema's fields, not types × the widest.
 */
const introspectionSizes = new WeakMap<GraphQLSchema, Record<string, number>>();

function introspectionListSizes(schema: GraphQLSchema): Record<string, number> {
  const known = introspectionSizes.get(schema);
  if (known) return known;
  const types = Object.values(schema.getTypeMap());
  const perType = (count: (t: GraphQLNamedType) => number) =>
    Math.max(1, Math.ceil(types.reduce((n, t) => n + count(t), 0) / types.length));
  const fields = types.flatMap((t) => (isObjectType(t) || isInterfaceType(t) ? Object.values(t.getFields()) : []));
  const sizes = {
    '__Schema.types': types.length,
    '__Schema.directives': schema.getDirectives().length,
    '__Type.fields': perType((t) => (isObjectType(t) || isInterfaceType(t) ? Object.keys(t.getFields()).length : 0)),
    '__Type.inputFields': perType((t) => (isInputObjectType(t) ? Object.keys(t.getFields()).length : 0)),
    '__Type.enumValues': perType((t) => (isEnumType(t) ? t.getValues().length : 0)),
    '__Type.interfaces': perType((t) => (isObjectType(t) || isInterfaceType(t) ? t.getInterfaces().length : 0)),
    '__Type.possibleTypes': perType((t) => (isAbstractType(t) ? schema.getPossibleTypes(t).length : 0)),
    '__Field.args': Math.max(1, Math.ceil(fields.reduce((n, f) => n + f.args.length, 0) / fields.length)),
    '__Directive.args': Math.max(...schema.getDirectives().map((d) => d.args.length), 1),
  };
  introspectionSizes.set(schema, sizes);
  return sizes;
}

/** The field `name` selects on `parent`, the introspection entry points included. */
function fieldOf(schema: GraphQLSchema, parent: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | null {
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? (parent.getFields()[name] ?? null) : null;
}

class Walk {
  visits = 0;
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  /**
   * Each fragment's measure, by name: a named fragment always has a type condition, so its measure
   * does not depend on where it is spread.
   */
  private readonly measured = new Map<string, Measure>();
  /** Fragments being measured: a cycle (refused by graphql's own rule) is not followed around. */
  private readonly open = new Set<string>();
  private readonly listSizes: Record<string, number>;

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
  ) {
    for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(d.name.value, d);
    this.listSizes = introspectionListSizes(schema);
  }

  selections(type: GraphQLNamedType, set: SelectionSetNode): Measure {
    const total: Measure = { depth: 0, cost: 0, calls: new Map() };
    for (const sel of set.selections) {
      this.visits++;
      let inner = EMPTY;
      if (sel.kind === Kind.FIELD) inner = this.field(type, sel);
      else if (sel.kind === Kind.FRAGMENT_SPREAD) inner = this.spread(sel.name.value);
      else {
        const onType = sel.typeCondition ? this.schema.getType(sel.typeCondition.name.value) : type;
        if (onType) inner = this.selections(onType, sel.selectionSet);
      }
      total.depth = Math.max(total.depth, inner.depth);
      total.cost += inner.cost;
      for (const [coordinate, n] of inner.calls) total.calls.set(coordinate, (total.calls.get(coordinate) ?? 0) + n);
      // Every count only grows on the way up (a page is at least 1), so the first excess is final.
      check(total);
    }
    return total;
  }

  private spread(name: string): Measure {
    const known = this.measured.get(name);
    if (known) return known;
    const fragment = this.fragments.get(name);
    const type = fragment && this.schema.getType(fragment.typeCondition.name.value);
    if (!fragment || !type || this.open.has(name)) return EMPTY;
    this.open.add(name);
    const m = this.selections(type, fragment.selectionSet);
    this.open.delete(name);
    this.measured.set(name, m);
    return m;
  }

  private field(parent: GraphQLNamedType, node: FieldNode): Measure {
    const def = fieldOf(this.schema, parent, node.name.value);
    const coordinate = `${parent.name}.${node.name.value}`;
    const calls = new Map<string, number>();
    if (PER_REQUEST[coordinate] !== undefined) calls.set(coordinate, 1);
    if (!def || !node.selectionSet) return { depth: 1, cost: 1, calls };
    const child = this.selections(getNamedType(def.type), node.selectionSet);
    const many = this.pageSize(def, node, coordinate);
    for (const [c, n] of child.calls) calls.set(c, (calls.get(c) ?? 0) + many * n);
    // A type reference's `ofType` chain is as long as its wrappers (a few), not a level of data:
    // counting it would refuse GraphiQL's own introspection query.
    const depth = child.depth + (coordinate === '__Type.ofType' ? 0 : 1);
    return { depth, cost: 1 + many * child.cost, calls };
  }

  /** A page (`first`, default 20) is counted where it is asked for; a connection's edges are that page. */
  private pageSize(def: GraphQLField<unknown, unknown>, node: FieldNode, coordinate: string): number {
    const first = node.arguments?.find((a) => a.name.value === 'first')?.value;
    const isList = getNullableType(def.type) instanceof GraphQLList;
    const many =
      first?.kind === Kind.INT
        ? Number(first.value)
        : first?.kind === Kind.VARIABLE
          ? MAX_PAGE
          : def.args.some((a) => a.name === 'first')
            ? Number(def.args.find((a) => a.name === 'first')?.defaultValue ?? LIST_SIZE)
            : isList
              ? (this.listSizes[coordinate] ?? LIST_SIZES[def.name] ?? LIST_SIZE)
              : 1;
    return Math.max(1, many);
  }
}

function check(m: Measure): void {
  if (m.depth > MAX_DEPTH) throw new Excess(`query too deep: ${m.depth} levels, at most ${MAX_DEPTH}`);
  if (m.cost > MAX_COST) throw new Excess(`query too costly: at least ${m.cost} fields, at most ${MAX_COST}`);
  for (const [coordinate, n] of m.calls) {
    const max = PER_REQUEST[coordinate] as number;
    if (n > max) {
      const field = coordinate.slice(coordinate.indexOf('.') + 1);
      throw new Excess(`query calls ${field} ${n} times, at most ${max} per request: send them separately`);
    }
  }
}

/** Every operation of `document` against the limits, in one pass over it. */
export function measureDocument(schema: GraphQLSchema, document: DocumentNode): DocumentMeasure {
  const walk = new Walk(schema, document);
  const result: DocumentMeasure = { excess: null, depth: 0, cost: 0, visits: 0 };
  let aliases = 0;
  try {
    for (const d of document.definitions) {
      // Aliases are counted in fragments too, used or not: graphql's own rules refuse unused ones.
      if (d.kind === Kind.OPERATION_DEFINITION || d.kind === Kind.FRAGMENT_DEFINITION) {
        aliases += countAliases(d.selectionSet);
        if (aliases > MAX_ALIASES) throw new Excess(`query has ${aliases} aliases, at most ${MAX_ALIASES}`);
      }
      if (d.kind !== Kind.OPERATION_DEFINITION) continue;
      const root =
        d.operation === 'query'
          ? schema.getQueryType()
          : d.operation === 'mutation'
            ? schema.getMutationType()
            : schema.getSubscriptionType();
      if (!root) continue;
      const m = walk.selections(root, d.selectionSet);
      result.depth = Math.max(result.depth, m.depth);
      result.cost = Math.max(result.cost, m.cost);
    }
  } catch (e) {
    if (!(e instanceof Excess)) throw e;
    result.excess = e.message;
  }
  result.visits = walk.visits;
  return result;
}

function countAliases(set: SelectionSetNode): number {
  let n = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD && sel.alias) n++;
    if (sel.kind !== Kind.FRAGMENT_SPREAD && sel.selectionSet) n += countAliases(sel.selectionSet);
  }
  return n;
}

export function limitsRule(ctx: ValidationContext): ASTVisitor {
  return {
    Document(document) {
      const { excess } = measureDocument(ctx.getSchema(), document);
      if (excess) ctx.reportError(new GraphQLError(excess));
      return BREAK;
    },
  };
}
