import { describe, expect, it } from 'vitest';

import type { Node } from './ast.ts';
import type { RsqlErrorCode } from './errors.ts';
import {
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
import { RsqlError } from './errors.ts';
import { parse } from './parser.ts';
import { stripSpans } from './serialize.ts';

const a = eq('a', '1');
const b = eq('b', '2');
const c = eq('c', '3');
const d = eq('d', '4');

const valid: { input: string; expected: Node }[] = [
  // every operator
  { input: 'Status==Open', expected: eq('Status', 'Open') },
  { input: 'Status!=Closed', expected: ne('Status', 'Closed') },
  { input: 'Story Points=gt=3', expected: gt('Story Points', '3') },
  { input: 'Story Points=ge=3', expected: ge('Story Points', '3') },
  { input: 'Story Points=lt=8', expected: lt('Story Points', '8') },
  { input: 'Story Points=le=8', expected: le('Story Points', '8') },
  { input: 'Number=bt=1:10', expected: between('Number', '1', '10') },
  { input: 'Number!bt=1:10', expected: comparison('Number', '!bt=', ['1', '10']) },
  { input: 'Number=nbt=1:10', expected: notBetween('Number', '1', '10') },
  { input: 'Number=in=1:2:3:4:5', expected: inList('Number', ['1', '2', '3', '4', '5']) },
  { input: 'Number=out=1:2', expected: outList('Number', ['1', '2']) },
  { input: 'Number!in=1:2:3', expected: comparison('Number', '!in=', ['1', '2', '3']) },
  { input: 'Title=lk=Incidents', expected: like('Title', 'Incidents') },
  { input: 'Title!lk=Incidents', expected: notLike('Title', 'Incidents') },
  { input: 'Title=lki=Incidents', expected: ilike('Title', 'Incidents') },
  { input: 'Title!lki=Incidents', expected: notIlike('Title', 'Incidents') },
  { input: 'Title=lk=*printer*', expected: like('Title', '*printer*') },
  // both list syntaxes and ranges
  { input: 'Severity=in=(High,Critical)', expected: inList('Severity', ['High', 'Critical']) },
  { input: 'Severity=in=High', expected: inList('Severity', ['High']) },
  { input: 'Severity=in=(High)', expected: inList('Severity', ['High']) },
  {
    input: 'Severity=out=( High , Critical )',
    expected: outList('Severity', ['High', 'Critical']),
  },
  { input: 'Number=bt=(1,10)', expected: between('Number', '1', '10') },
  { input: 'Number!bt=( -1 , 1.5 )', expected: comparison('Number', '!bt=', ['-1', '1.5']) },
  { input: 'Number=nbt=(1,10)', expected: notBetween('Number', '1', '10') },
  { input: 'Tag=in=(a:b,c)', expected: inList('Tag', ['a:b', 'c']) },
  { input: "Tags=in='a b':'c d'", expected: inList('Tags', ['a b', 'c d']) },
  { input: `Tags=in='a':b:"c"`, expected: inList('Tags', ['a', 'b', 'c']) },
  { input: 'Tags=in=(\'a,b\',"c)")', expected: inList('Tags', ['a,b', 'c)']) },
  // timestamps keep their colons in a ':' list
  {
    input: 'Created At=bt=2024-01-01T00:00:00.000Z:2024-12-31T23:59:59.999Z',
    expected: between('Created At', '2024-01-01T00:00:00.000Z', '2024-12-31T23:59:59.999Z'),
  },
  {
    input: 'Created At=bt=2024-01-01T10:00Z:2024-01-01T11:00Z',
    expected: between('Created At', '2024-01-01T10:00Z', '2024-01-01T11:00Z'),
  },
  {
    input: 'Created At=nbt=2024-01-01T10:00:00Z:2024-01-02T10:00:00Z',
    expected: notBetween('Created At', '2024-01-01T10:00:00Z', '2024-01-02T10:00:00Z'),
  },
  {
    input: 'Created At=bt=2024-01-01T10:00:00.5+02:00:2024-01-01T12:00:00-05:00',
    expected: between('Created At', '2024-01-01T10:00:00.5+02:00', '2024-01-01T12:00:00-05:00'),
  },
  {
    input: 'Created At=bt=2024-01-01T10:00:2024-01-01T11:00',
    expected: between('Created At', '2024-01-01T10:00', '2024-01-01T11:00'),
  },
  {
    input: 'Created At=in=2024-01-01T10:00:00:2024-01-01T10:00:00Zx:y',
    expected: inList('Created At', ['2024-01-01T10:00:00', '2024-01-01T10:00', '00Zx', 'y']),
  },
  {
    input: 'Due=in=2024-01-01T10:00Z:2024-01-01:x',
    expected: inList('Due', ['2024-01-01T10:00Z', '2024-01-01', 'x']),
  },
  {
    input: 'Due Date=bt=2024-01-01:2024-12-31',
    expected: between('Due Date', '2024-01-01', '2024-12-31'),
  },
  {
    input: 'Created At=ge=2021-01-01T07:58:30.000Z',
    expected: ge('Created At', '2021-01-01T07:58:30.000Z'),
  },
  // ':' is plain text in a single value
  { input: 'Time==10:30', expected: eq('Time', '10:30') },
  { input: 'Link==https://example.com/a/b#c', expected: eq('Link', 'https://example.com/a/b#c') },
  // null
  { input: 'Due Date==null', expected: isNull('Due Date') },
  { input: 'Created At!=null', expected: notNull('Created At') },
  { input: "Title=='null'", expected: eq('Title', 'null') },
  { input: 'Title=="null"', expected: eq('Title', 'null') },
  { input: 'Title==nullish', expected: eq('Title', 'nullish') },
  { input: 'Title==NULL', expected: eq('Title', 'NULL') },
  { input: 'Owner=in=(null,jane)', expected: comparison('Owner', '=in=', [null, 'jane']) },
  // quoted values, both quote kinds, escapes
  { input: "Title=='hello world'", expected: eq('Title', 'hello world') },
  { input: 'Title=="hello world"', expected: eq('Title', 'hello world') },
  { input: "Title=='it\\'s'", expected: eq('Title', "it's") },
  { input: 'Title=="it\'s"', expected: eq('Title', "it's") },
  { input: 'Title=="say \\"hi\\""', expected: eq('Title', 'say "hi"') },
  { input: "Title=='a\\\\b'", expected: eq('Title', 'a\\b') },
  { input: "Title=='\\n\\x'", expected: eq('Title', 'nx') },
  { input: "Title==''", expected: eq('Title', '') },
  { input: "Title=='a;b,(c)=d'", expected: eq('Title', 'a;b,(c)=d') },
  { input: "Title=='line\nbreak'", expected: eq('Title', 'line\nbreak') },
  // quoted selectors
  { input: "'Due Date'==null", expected: isNull('Due Date') },
  { input: '"Due Date"=le=2024-01-01', expected: le('Due Date', '2024-01-01') },
  { input: "' padded '==x", expected: eq(' padded ', 'x') },
  { input: "'a=b'=='c\\'d'", expected: eq('a=b', "c'd") },
  { input: "''==x", expected: eq('', 'x') },
  // selectors with inner spaces, characters allowed unquoted
  { input: 'Created At=ge=2024-01-01', expected: ge('Created At', '2024-01-01') },
  { input: 'Created   At==x', expected: eq('Created   At', 'x') },
  { input: 'data.field_1-x==y', expected: eq('data.field_1-x', 'y') },
  {
    input: 'Assignee==jane.doe+triage@example.com',
    expected: eq('Assignee', 'jane.doe+triage@example.com'),
  },
  { input: 'n=gt=-1.5e3', expected: gt('n', '-1.5e3') },
  { input: 'Título==Mañana', expected: eq('Título', 'Mañana') },
  { input: 'Name==日本語😀', expected: eq('Name', '日本語😀') },
  { input: 'Title=lk=50%/#&?$[]{}|^', expected: like('Title', '50%/#&?$[]{}|^') },
  // whitespace handling
  { input: '  Status  ==  Open  ', expected: eq('Status', 'Open') },
  { input: 'Status=in= (a)', expected: inList('Status', ['a']) },
  {
    input: 'Created At =ge= 2024-01-01 ; Status == Open',
    expected: and(ge('Created At', '2024-01-01'), eq('Status', 'Open')),
  },
  { input: 'a==1 ; ( b==2 , c==3 )', expected: and(a, or(b, c)) },
  { input: '\ta==1\n;\r\nb==2\n', expected: and(a, b) },
  // keywords
  { input: 'a==1 and b==2', expected: and(a, b) },
  { input: 'a==1 or b==2', expected: or(a, b) },
  { input: 'a==1\tand\nb==2', expected: and(a, b) },
  { input: 'a==1 and b==2 or c==3', expected: or(and(a, b), c) },
  { input: 'a==1 or b==2 and c==3', expected: or(a, and(b, c)) },
  { input: '(a==1) or (b==2)', expected: or(a, b) },
  { input: 'a==1 and (b==2 or c==3)', expected: and(a, or(b, c)) },
  { input: 'a==1 and(b==2,c==3)', expected: and(a, or(b, c)) },
  { input: "a=='x' and b==2", expected: and(eq('a', 'x'), b) },
  { input: 'or==and', expected: eq('or', 'and') },
  // precedence, flattening, parentheses
  { input: 'a==1;b==2,c==3;d==4', expected: or(and(a, b), and(c, d)) },
  { input: 'a==1,b==2;c==3', expected: or(a, and(b, c)) },
  { input: 'a==1;(b==2,c==3)', expected: and(a, or(b, c)) },
  { input: '(a==1,b==2);c==3', expected: and(or(a, b), c) },
  { input: 'a==1;b==2;c==3', expected: and(a, b, c) },
  { input: 'a==1;(b==2;c==3)', expected: and(a, b, c) },
  { input: '(a==1,(b==2,c==3))', expected: or(a, b, c) },
  { input: '((a==1))', expected: a },
  { input: '(a==1;(b==2,(c==3;d==4)))', expected: and(a, or(b, and(c, d))) },
  {
    input: `${'('.repeat(10)}a==1${')'.repeat(10)}`,
    expected: a,
  },
];

describe('parse: valid input', () => {
  it.each(valid)('$input', ({ input, expected }) => {
    expect(stripSpans(parse(input))).toEqual(stripSpans(expected));
  });

  it('reads exactly 100 comparisons and exactly 4096 bytes', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `f==${i}`).join(';');
    expect(parse(hundred)).toMatchObject({ type: 'and' });
    const full = `a==${'x'.repeat(4093)}`;
    expect(full.length).toBe(4096);
    expect(parse(full)).toMatchObject({ values: ['x'.repeat(4093)] });
  });
});

const invalid: { input: string; code: RsqlErrorCode; position: number; expected?: string[] }[] = [
  // strings and escapes
  { input: "Title=='abc", code: 'UNTERMINATED_STRING', position: 7, expected: ['closing quote'] },
  { input: 'Title=="abc\\"', code: 'UNTERMINATED_STRING', position: 7 },
  { input: "'Due Date==x", code: 'UNTERMINATED_STRING', position: 0 },
  { input: "Title=='abc\\", code: 'INVALID_ESCAPE', position: 11 },
  // missing pieces
  { input: 'Status==', code: 'UNEXPECTED_END', position: 8, expected: ['value'] },
  { input: 'Status== ', code: 'UNEXPECTED_END', position: 9, expected: ['value'] },
  { input: 'Status==;a==1', code: 'EMPTY_VALUE', position: 8, expected: ['value'] },
  { input: 'Status==)', code: 'EMPTY_VALUE', position: 8 },
  { input: 'Status', code: 'UNEXPECTED_END', position: 6, expected: ['operator'] },
  { input: 'Status;', code: 'UNEXPECTED_CHARACTER', position: 6, expected: ['operator'] },
  { input: "'Status'x==1", code: 'UNEXPECTED_CHARACTER', position: 8, expected: ['operator'] },
  { input: '==a', code: 'UNEXPECTED_CHARACTER', position: 0, expected: ['selector', "'('"] },
  // operators
  { input: 'Status=foo=Open', code: 'UNKNOWN_OPERATOR', position: 6, expected: ['operator'] },
  { input: 'Status=Open', code: 'UNKNOWN_OPERATOR', position: 6 },
  { input: 'Status>=3', code: 'UNKNOWN_OPERATOR', position: 6 },
  { input: 'Status=IN=(a)', code: 'UNKNOWN_OPERATOR', position: 6 },
  { input: 'Status=in', code: 'UNEXPECTED_END', position: 9, expected: ['operator'] },
  // arity
  { input: 'Number=bt=1:2:3', code: 'WRONG_ARITY', position: 14 },
  { input: 'Number=bt=(1,2,3)', code: 'WRONG_ARITY', position: 15 },
  { input: 'Number!bt=1', code: 'WRONG_ARITY', position: 10 },
  { input: 'Number=nbt=(1)', code: 'WRONG_ARITY', position: 11 },
  { input: 'Status==(a,b)', code: 'WRONG_ARITY', position: 11 },
  { input: 'Title=lk=(a,b)', code: 'WRONG_ARITY', position: 12 },
  // lists
  { input: 'Severity=in=()', code: 'EMPTY_VALUE', position: 13 },
  { input: 'Severity=in=(a,,b)', code: 'EMPTY_VALUE', position: 15 },
  { input: 'Severity=in=(a,b', code: 'UNEXPECTED_END', position: 16, expected: ["','", "')'"] },
  {
    input: 'Severity=in=(a b)',
    code: 'UNEXPECTED_CHARACTER',
    position: 15,
    expected: ["','", "')'"],
  },
  { input: 'Severity=in=a:', code: 'UNEXPECTED_END', position: 14, expected: ['value'] },
  { input: 'Severity=in=a::b', code: 'EMPTY_VALUE', position: 14 },
  { input: 'Severity=in=a: b', code: 'EMPTY_VALUE', position: 14 },
  { input: "a=='x':'y'", code: 'UNEXPECTED_CHARACTER', position: 6 },
  // parentheses
  { input: '(a==1', code: 'UNEXPECTED_END', position: 5, expected: ["';'", "','", "')'"] },
  { input: '((a==1)', code: 'UNEXPECTED_END', position: 7 },
  {
    input: 'a==1)',
    code: 'UNEXPECTED_CHARACTER',
    position: 4,
    expected: ["';'", "','", 'end of input'],
  },
  { input: '()', code: 'UNEXPECTED_CHARACTER', position: 1, expected: ['selector', "'('"] },
  // logical tokens
  { input: 'a==1;', code: 'UNEXPECTED_END', position: 5, expected: ['selector', "'('"] },
  { input: 'a==1,', code: 'UNEXPECTED_END', position: 5 },
  { input: 'a==1 ; ', code: 'UNEXPECTED_END', position: 7 },
  { input: ';a==1', code: 'UNEXPECTED_CHARACTER', position: 0 },
  { input: 'a==1;;b==2', code: 'UNEXPECTED_CHARACTER', position: 5 },
  { input: 'a==1 b==2', code: 'UNEXPECTED_CHARACTER', position: 5 },
  { input: 'a==1 and', code: 'UNEXPECTED_END', position: 8 },
  { input: 'a==1 andb==2', code: 'UNEXPECTED_CHARACTER', position: 5 },
  { input: 'a==1 AND b==2', code: 'UNEXPECTED_CHARACTER', position: 5 },
  { input: '(a==1)and b==2', code: 'UNEXPECTED_CHARACTER', position: 6 },
  // reserved characters in unquoted values
  { input: 'a==b c', code: 'UNEXPECTED_CHARACTER', position: 5 },
  { input: 'a===b', code: 'UNEXPECTED_CHARACTER', position: 3, expected: ['value'] },
  { input: 'a==b=c', code: 'UNEXPECTED_CHARACTER', position: 4 },
  { input: 'a==b!', code: 'UNEXPECTED_CHARACTER', position: 4 },
  { input: "a==b'c'", code: 'UNEXPECTED_CHARACTER', position: 4 },
  { input: 'a==b\\c', code: 'UNEXPECTED_CHARACTER', position: 4 },
  { input: "a=='x'y", code: 'UNEXPECTED_CHARACTER', position: 6 },
  // empty
  { input: '', code: 'EMPTY', position: 0 },
  { input: '  \n\t ', code: 'EMPTY', position: 0 },
  // limits
  { input: `${'('.repeat(11)}a==1${')'.repeat(11)}`, code: 'TOO_DEEP', position: 10 },
  {
    input: Array.from({ length: 101 }, (_, i) => `f==${i}`).join(';'),
    code: 'TOO_MANY_COMPARISONS',
    position: Array.from({ length: 100 }, (_, i) => `f==${i};`).join('').length,
  },
  { input: `a==${'x'.repeat(4094)}`, code: 'TOO_LONG', position: 4096 },
  { input: '('.repeat(100_000), code: 'TOO_LONG', position: 4096 },
  // 3 + 2 * 2047 = 4097 bytes; the 2047th 'é' (at character 2049) is the one that does not fit
  { input: `a==${'é'.repeat(2047)}`, code: 'TOO_LONG', position: 2049 },
];

function parseError(input: string, options?: Parameters<typeof parse>[1]): RsqlError {
  try {
    parse(input, options);
  } catch (error) {
    if (error instanceof RsqlError) return error;
    throw error;
  }
  throw new Error(`parsed without error: ${input}`);
}

describe('parse: invalid input', () => {
  it.each(invalid)('$code at $position: $input', ({ input, code, position, expected }) => {
    const error = parseError(input);
    expect({ code: error.code, position: error.position }).toEqual({ code, position });
    if (expected !== undefined) expect(error.expected).toEqual(expected);
    if (code !== 'EMPTY') expect(error.message).toContain(`position ${position}`);
  });

  it('writes readable messages', () => {
    expect(parseError('Status').message).toBe(
      'Expected an operator at position 6 but the filter ended',
    );
    expect(parseError('Status;x').message).toBe("Expected an operator at position 6 but found ';'");
    expect(parseError('a==1 b').message).toBe(
      "Expected ';', ',' or end of input at position 5 but found 'b'",
    );
    expect(parseError('a==b\u0001').message).toContain('found U+0001');
    expect(parseError('Status=foo=x').message).toBe("Unknown operator '=foo=' at position 6");
    expect(parseError('n=bt=1:2:3').message).toBe(
      "Operator '=bt=' takes exactly two values, not 3, at position 9",
    );
    expect(parseError('').message).toBe('The filter is empty');
    const error = parseError('x');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('RsqlError');
  });

  it('honours custom limits', () => {
    expect(parseError('((a==1))', { maxDepth: 1 })).toMatchObject({
      code: 'TOO_DEEP',
      position: 1,
    });
    expect(parseError('a==1;b==2', { maxComparisons: 1 })).toMatchObject({
      code: 'TOO_MANY_COMPARISONS',
      position: 5,
    });
    expect(parseError('a==12', { maxLength: 4 })).toMatchObject({ code: 'TOO_LONG', position: 4 });
    expect(parse('a==1', { maxLength: undefined, maxDepth: 0 })).toMatchObject({ selector: 'a' });
  });

  it('checks the length before anything else and never overflows the stack', () => {
    const opens = '('.repeat(100_000);
    expect(parseError(opens).code).toBe('TOO_LONG');
    expect(parseError(opens, { maxLength: Infinity })).toMatchObject({
      code: 'TOO_DEEP',
      position: 10,
    });
    const unlimited = { maxLength: Infinity, maxDepth: Infinity, maxComparisons: Infinity };
    expect(parseError(opens, unlimited)).toMatchObject({
      code: 'UNEXPECTED_END',
      position: 100_000,
    });
    const deep = `${opens}a==1${')'.repeat(100_000)}`;
    expect(stripSpans(parse(deep, unlimited))).toEqual(stripSpans(a));
    const alternating = `${'a==1;(b==2,('.repeat(20_000)}c==3${'))'.repeat(20_000)}`;
    expect(parse(alternating, unlimited).type).toBe('and');
  });

  it('rejects non-string input with an RsqlError', () => {
    expect(() => parse(undefined as unknown as string)).toThrow(RsqlError);
  });
});

describe('parse: spans', () => {
  it('points at selectors, values and operands', () => {
    const input = " 'Due Date' =in= ( 'x' , y ) and (b==2 , c==\"3\")";
    const node = parse(input);
    if (node.type !== 'and') throw new Error('expected and');
    expect(node.span).toEqual({ start: 1, end: input.length });
    const [first, second] = node.children;
    if (first?.type !== 'comparison' || second?.type !== 'or') throw new Error('shape');
    expect(input.slice(first.span.start, first.span.end)).toBe("'Due Date' =in= ( 'x' , y )");
    expect(input.slice(first.selectorSpan.start, first.selectorSpan.end)).toBe("'Due Date'");
    expect(first.valueSpans.map((s) => input.slice(s.start, s.end))).toEqual(["'x'", 'y']);
    expect(input.slice(second.span.start, second.span.end)).toBe('b==2 , c=="3"');
    const last = second.children[1];
    if (last?.type !== 'comparison') throw new Error('shape');
    expect(input.slice(last.span.start, last.span.end)).toBe('c=="3"');
  });

  it('trims unquoted selectors and covers timestamps whole', () => {
    const input = '  Created At  =bt=2024-01-01T10:00Z:2024-01-01T11:00:00.5+02:00';
    const node = parse(input);
    if (node.type !== 'comparison') throw new Error('expected comparison');
    expect(node.selectorSpan).toEqual({ start: 2, end: 12 });
    expect(node.valueSpans.map((s) => input.slice(s.start, s.end))).toEqual(node.values);
  });
});
