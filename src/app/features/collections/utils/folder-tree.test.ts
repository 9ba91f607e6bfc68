import { describe, expect, it } from 'vitest';
import type { Folder } from '../../../../contract/collections';
import { ancestryOf, byPath, canMoveFolderInto, changeFolder, subtreeIds } from './folder-tree';

const folder = (id: string, path: string, parentId: string | null): Folder => ({
  id,
  name: path.split('/').at(-1)!,
  path,
  parentId,
  depth: path.split('/').length - 1,
});

const tree = [
  folder('fo_shoot', 'Shoot', null),
  folder('fo_day1', 'Shoot/Day 1', 'fo_shoot'),
  folder('fo_raw', 'Shoot/Day 1/Raw', 'fo_day1'),
  folder('fo_day2', 'Shoot/day 2', 'fo_shoot'),
  folder('fo_misc', 'Misc', null),
].sort(byPath);

describe('the folder tree', () => {
  it('orders depth first by path, regardless of case', () => {
    expect(tree.map((f) => f.path)).toEqual(['Misc', 'Shoot', 'Shoot/Day 1', 'Shoot/Day 1/Raw', 'Shoot/day 2']);
  });

  it('knows a folder’s subtree and ancestry, and refuses a move into its own subtree', () => {
    expect([...subtreeIds(tree, 'fo_day1')].sort()).toEqual(['fo_day1', 'fo_raw']);
    expect(ancestryOf(tree, 'fo_raw').map((f) => f.name)).toEqual(['Shoot', 'Day 1', 'Raw']);
    expect(ancestryOf(tree, null)).toEqual([]);
    expect(canMoveFolderInto(tree, 'fo_shoot', 'fo_raw')).toBe(false);
    expect(canMoveFolderInto(tree, 'fo_shoot', 'fo_shoot')).toBe(false);
    expect(canMoveFolderInto(tree, 'fo_day1', 'fo_misc')).toBe(true);
    expect(canMoveFolderInto(tree, 'fo_day1', null)).toBe(true);
  });

  it('rewrites the path and depth of everything under a renamed or moved folder', () => {
    const renamed = changeFolder(tree, { folderId: 'fo_day1', name: 'First day' });
    expect(renamed.find((f) => f.id === 'fo_raw')!.path).toBe('Shoot/First day/Raw');

    const moved = changeFolder(tree, { folderId: 'fo_day1', parentId: 'fo_misc' });
    expect(moved.filter((f) => f.path.startsWith('Misc')).map((f) => [f.path, f.depth])).toEqual([
      ['Misc', 0],
      ['Misc/Day 1', 1],
      ['Misc/Day 1/Raw', 2],
    ]);
    const toTop = changeFolder(tree, { folderId: 'fo_raw', parentId: null });
    expect(toTop.find((f) => f.id === 'fo_raw')).toMatchObject({ path: 'Raw', depth: 0, parentId: null });
    // Into its own subtree: nothing changes (the server refuses it too).
    expect(changeFolder(tree, { folderId: 'fo_shoot', parentId: 'fo_raw' })).toEqual(tree);
  });
});
