export type RsqlErrorCode =
  | 'UNEXPECTED_CHARACTER'
  | 'UNEXPECTED_END'
  | 'UNTERMINATED_STRING'
  | 'INVALID_ESCAPE'
  | 'UNKNOWN_OPERATOR'
  | 'EMPTY_VALUE'
  | 'WRONG_ARITY'
  | 'TOO_LONG'
  | 'TOO_DEEP'
  | 'TOO_MANY_COMPARISONS'
  | 'NOT_IN_DIALECT'
  | 'INVALID_RELATIVE_DATE'
  | 'EMPTY';

/**
 * The only error `parse` throws. `position` is a character offset into the input (UTF-16 code
 * units); `expected` lists what would have been accepted there, using the labels `selector`,
 * `operator`, `value`, `closing quote`, `end of input` and quoted tokens such as `';'`, `','`,
 * `'('`, `')'`. It is empty for limit and arity errors.
 *
 * @example
 * try {
 *   parse('Status=foo=Open');
 * } catch (error) {
 *   if (error instanceof RsqlError) console.log(error.code, error.position); // UNKNOWN_OPERATOR 6
 * }
 */
export class RsqlError extends Error {
  override readonly name = 'RsqlError';
  readonly code: RsqlErrorCode;
  readonly position: number;
  readonly expected: string[];

  constructor(code: RsqlErrorCode, position: number, expected: string[], message: string) {
    super(message);
    this.code = code;
    this.position = position;
    this.expected = expected;
  }
}

/**
 * Narrows an unknown caught value to an `RsqlError`.
 *
 * @example
 * if (isRsqlError(error)) return badRequest(error.message, error.position);
 */
export function isRsqlError(error: unknown): error is RsqlError {
  return error instanceof RsqlError;
}
