// The package's sole entry point.
export type {
  ComparisonNode,
  ComparisonOperator,
  LogicalNode,
  Node,
  Span,
  StrippedNode,
  Value,
} from './ast.ts';
export type { RsqlErrorCode } from './errors.ts';
export { isRsqlError, RsqlError } from './errors.ts';
export type { FilterFieldType, OperatorArity, OperatorInfo } from './operators.ts';
export {
  canonicalOperator,
  dialectOperator,
  isComparisonOperator,
  isHostedOperator,
  OPERATORS,
  OPERATORS_BY_FIELD_TYPE,
  operatorInfo,
  operatorsForFieldType,
} from './operators.ts';
export type { Dialect, ParseOptions } from './options.ts';
export { DEFAULT_PARSE_OPTIONS } from './options.ts';
export { parse } from './parser.ts';
export type { FieldTypeOf, RelativeClock, RelativeDate, ResolvedRange } from './relative-dates.ts';
export {
  checkRelativeDates,
  describeRelativeDate,
  formatRelativeDate,
  isRelativeDateText,
  parseRelativeDate,
  resolveRelativeDate,
  resolveRelativeDates,
} from './relative-dates.ts';
export type { SerializeOptions } from './serialize.ts';
export { serialize, stripSpans } from './serialize.ts';
export {
  and,
  between,
  comparison,
  eq,
  ge,
  gt,
  ilike,
  inList,
  isNull,
  le,
  like,
  lt,
  ne,
  notBetween,
  notIlike,
  notLike,
  notNull,
  or,
  outList,
} from './builder.ts';
export { comparisons, walk } from './walk.ts';
