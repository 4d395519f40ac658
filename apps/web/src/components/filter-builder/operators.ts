import type { FieldType } from '@wsc/api-client';
import type { ComparisonOperator } from '@wsc/rsql';
import { operatorInfo, operatorsForFieldType } from '@wsc/rsql';

/**
 * What the builder offers in its operator menu. `is-empty` / `is-not-empty` are the null checks,
 * written `==null` / `!=null` in RSQL.
 */
export type OperatorChoice = ComparisonOperator | 'is-empty' | 'is-not-empty';

const NULL_CHECKS: OperatorChoice[] = ['is-empty', 'is-not-empty'];

/**
 * The operators a field type supports, in menu order: the API's table (@wsc/rsql's
 * OPERATORS_BY_FIELD_TYPE) and then the null checks.
 *
 * @example
 * operatorsForType('BOOLEAN'); // ['==', '!=', 'is-empty', 'is-not-empty']
 */
export function operatorsForType(type: FieldType): OperatorChoice[] {
  return [...operatorsForFieldType(type), ...NULL_CHECKS];
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
  if (op === 'is-empty' || op === 'is-not-empty') return 'none';
  return operatorInfo(op).arity;
}
