import { describe, expect, it } from 'vitest';
import { transferName } from './transfer-display';

describe('transferName', () => {
  it('is the title, else the first file’s name, else Untitled', () => {
    expect(transferName({ title: ' Q3 figures ' }, 'a.pdf')).toBe('Q3 figures');
    expect(transferName({ title: null }, 'a.pdf')).toBe('a.pdf');
    expect(transferName({ title: '' }, null)).toBe('Untitled');
  });

  it('names an end-to-end encrypted transfer as such: the server has only a placeholder file name', () => {
    expect(transferName({ title: null, e2ee: true }, 'encrypted')).toBe('End-to-end encrypted transfer');
  });
});
