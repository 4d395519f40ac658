import { describe, expect, it } from 'vitest';

import { parse } from '@wsc/rsql';

import { searchNode, usersFilter, UsersSearchSchema } from './user-filter.ts';

describe('usersFilter', () => {
  it('is empty without a search or a filter', () => {
    expect(usersFilter({})).toBe('');
    expect(usersFilter({ q: '   ' })).toBe('');
  });

  it('searches the text fields in any case', () => {
    expect(usersFilter({ q: ' ada ' })).toBe(
      'email=lki=ada,firstName=lki=ada,lastName=lki=ada,jobTitle=lki=ada',
    );
  });

  it('ANDs the search box with the builder filter', () => {
    expect(usersFilter({ q: 'ada', filter: 'status==ACTIVE' })).toBe(
      '(email=lki=ada,firstName=lki=ada,lastName=lki=ada,jobTitle=lki=ada);status==ACTIVE',
    );
    expect(usersFilter({ filter: 'status==INACTIVE' })).toBe('status==INACTIVE');
  });

  it('keeps typed RSQL characters as values, never as structure', () => {
    const filter = usersFilter({ q: "o'brien;status==INACTIVE" });
    const node = parse(filter);
    expect(node.type).toBe('or');
    expect(node.type === 'or' && node.children).toHaveLength(4);
  });

  it('sends a filter that does not parse unchanged, so the API reports its position', () => {
    expect(usersFilter({ q: 'ada', filter: 'status=bogus=' })).toBe('status=bogus=');
  });

  it('has no node for an empty term', () => {
    expect(searchNode('')).toBeNull();
  });
});

describe('UsersSearchSchema', () => {
  it('drops bad values instead of failing', () => {
    expect(UsersSearchSchema.parse({ q: 42, filter: 'x'.repeat(5000) })).toEqual({});
  });
});
