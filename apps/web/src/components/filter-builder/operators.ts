import type { FieldType } from '@wsc/api-client';
import type { ComparisonOperator } from '@wsc/rsql';

/**
 * What the builder offers in its operator menu. `is-empty` / `is-not-empty` are the null checks,
 * written `==null` / `!=null` in RSQL.
 */
export type OperatorChoice = ComparisonOperator | 'is-empty' | 'is-not-empty';

const NULL_CHECKS: OperatorChoice[] = ['is-empty', 'is-not-empty'];
const TEXT: OperatorChoice[] = [
  '==',
  '!=',
  '=lk=',
  '!lk=',
  '=lki=',
  '!lki=',
  '=in=',
  '=out=',
  ...NULL_CHECKS,
];
const ORDERED: OperatorChoice[] = [
  '==',
  '!=',
  '=gt=',
  '=ge=',
  '=lt=',
  '=le=',
  '=bt=',
  '=nbt=',
  ...NULL_CHECKS,
];
const PICKLIST: OperatorChoice[] = ['==', '!=', '=in=', '=out=', ...NULL_CHECKS];
// On a multi-picklist, `==` means "has all of" and `=in=` "has any of" (the API's semantics).
const MULTI_PICKLIST: OperatorChoice[] = ['==', '!=', '=in=', '=out=', ...NULL_CHECKS];
const USER: OperatorChoice[] = ['==', '!=', '=in=', ...NULL_CHECKS];
const BOOLEAN: OperatorChoice[] = ['=='];

/**
 * The operators a field type supports, in menu order.
 *
 * @example
 * operatorsForType('BOOLEAN'); // ['==']
 */
export function operatorsForType(type: FieldType): OperatorChoice[] {
  switch (type) {
    case 'NUMBER':
    case 'DECIMAL':
    case 'DATE':
    case 'DATETIME':
      return ORDERED;
    case 'PICKLIST':
      return PICKLIST;
    case 'MULTI_PICKLIST':
      return MULTI_PICKLIST;
    case 'USER_ID':
      return USER;
    case 'BOOLEAN':
      return BOOLEAN;
    default:
      return TEXT;
  }
}

const LABELS: Record<OperatorChoice, string> = {
  '==': 'is',
  '!=': 'is not',
  '=gt=': 'greater than',
  '=ge=': 'at least',
  '=lt=': 'less than',
  '=le=': 'at most',
  '=bt=': 'between',
  '!bt=': 'not between',
  '=nbt=': 'not between',
  '=in=': 'is any of',
  '=out=': 'is none of',
  '!in=': 'is none of',
  '=lk=': 'contains',
  '!lk=': 'does not contain',
  '=lki=': 'contains (any case)',
  '!lki=': 'does not contain (any case)',
  'is-empty': 'is empty',
  'is-not-empty': 'is not empty',
};

const DATE_LABELS: Partial<Record<OperatorChoice, string>> = {
  '=gt=': 'after',
  '=ge=': 'on or after',
  '=lt=': 'before',
  '=le=': 'on or before',
};

/**
 * The label of an operator, worded for the field type (dates say "before" / "after").
 *
 * @example
 * operatorLabel('=lt=', 'DATE'); // 'before'
 */
export function operatorLabel(op: OperatorChoice, type?: FieldType): string {
  if (type === 'DATE' || type === 'DATETIME') return DATE_LABELS[op] ?? LABELS[op];
  return LABELS[op];
}

/** How many value inputs an operator choice needs. */
export type ValueArity = 'none' | 'one' | 'two' | 'many';

/**
 * @example
 * operatorArity('=bt='); // 'two'
 */
export function operatorArity(op: OperatorChoice): ValueArity {
  switch (op) {
    case 'is-empty':
    case 'is-not-empty':
      return 'none';
    case '=bt=':
    case '!bt=':
    case '=nbt=':
      return 'two';
    case '=in=':
    case '=out=':
    case '!in=':
      return 'many';
    default:
      return 'one';
  }
}
