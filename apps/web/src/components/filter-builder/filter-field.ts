import type { Field } from '@wsc/api-client';

import type { FilterCondition } from './filter-model.ts';
import type { OperatorChoice } from './operators.ts';

/**
 * What the builder needs to know of a field: its name (the RSQL selector), its type (which picks
 * the operators and the value editor) and, for picklists, its values. Definition fields fit as
 * they are; other lists (users: email, names, status) describe theirs the same way.
 */
export type FilterField = Pick<Field, 'name' | 'type'> &
  Partial<Pick<Field, 'values' | 'readOnly'>> & {
    /** What the field menu shows when the selector is not readable as is (`firstName`). */
    label?: string;
  };

/**
 * The operator a new condition on `field` starts with: "contains" for text, "is" otherwise.
 *
 * @example
 * operatorDefault({ name: 'Title', type: 'TEXT' }); // '=lki='
 */
export function operatorDefault(field: FilterField): OperatorChoice & FilterCondition['operator'] {
  if (field.type === 'TEXT') return '=lki=';
  return '==';
}
