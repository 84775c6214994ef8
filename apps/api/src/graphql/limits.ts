/**
 * Query depth and cost limits, as validation rules: a query is refused before any resolver runs.
 * Cost counts every field once, multiplied by the page size of the lists above it (the `first`
 * argument, else the list's usual size), so one request cannot ask for the whole database.
 */
import {
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  GraphQLList,
  type GraphQLNamedType,
  GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

export const MAX_DEPTH = 8;
export const MAX_COST = 50_000;
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
};
const LIST_SIZE = 10;
/** The largest page a client may ask for (`first`), assumed when it comes in a variable. */
const MAX_PAGE = 100;

interface Measure {
  depth: number;
  cost: number;
}

function measure(
  schema: GraphQLSchema,
  type: GraphQLNamedType,
  set: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  seen: Set<string>,
): Measure {
  let depth = 0;
  let cost = 0;
  for (const sel of set.selections) {
    let inner: Measure = { depth: 0, cost: 0 };
    if (sel.kind === Kind.FIELD) {
      inner = measureField(schema, type, sel, fragments, seen);
    } else {
      const frag = sel.kind === Kind.FRAGMENT_SPREAD ? fragments[sel.name.value] : sel;
      if (!frag || (sel.kind === Kind.FRAGMENT_SPREAD && seen.has(sel.name.value))) continue;
      const onType = frag.typeCondition ? schema.getType(frag.typeCondition.name.value) : type;
      const nextSeen = sel.kind === Kind.FRAGMENT_SPREAD ? new Set([...seen, sel.name.value]) : seen;
      if (onType) inner = measure(schema, onType, frag.selectionSet, fragments, nextSeen);
    }
    depth = Math.max(depth, inner.depth);
    cost += inner.cost;
  }
  return { depth, cost };
}

function measureField(
  schema: GraphQLSchema,
  parent: GraphQLNamedType,
  node: FieldNode,
  fragments: Record<string, FragmentDefinitionNode>,
  seen: Set<string>,
): Measure {
  const def = parent instanceof GraphQLObjectType ? parent.getFields()[node.name.value] : undefined;
  if (!def || !node.selectionSet) return { depth: 1, cost: 1 };
  const child = measure(schema, getNamedType(def.type), node.selectionSet, fragments, seen);
  // A page (`first`, default 20) is counted where it is asked for; a connection's edges are that page.
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
            ? (LIST_SIZES[def.name] ?? LIST_SIZE)
            : 1;
  return { depth: child.depth + 1, cost: 1 + many * child.cost };
}

export function limitsRule(ctx: ValidationContext): ASTVisitor {
  const schema = ctx.getSchema();
  const fragments = Object.fromEntries(
    ctx.getDocument().definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d]] : [])),
  );
  return {
    OperationDefinition(op) {
      const root =
        op.operation === 'query'
          ? schema.getQueryType()
          : op.operation === 'mutation'
            ? schema.getMutationType()
            : schema.getSubscriptionType();
      if (!root) return;
      const m = measure(schema, root, op.selectionSet, fragments, new Set());
      if (m.depth > MAX_DEPTH)
        ctx.reportError(new GraphQLError(`query too deep: ${m.depth} levels, at most ${MAX_DEPTH}`));
      if (m.cost > MAX_COST)
        ctx.reportError(new GraphQLError(`query too costly: about ${m.cost} fields, at most ${MAX_COST}`));
    },
  };
}
