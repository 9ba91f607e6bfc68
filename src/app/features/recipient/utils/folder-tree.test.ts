import { describe, expect, it } from 'vitest';
import type { Folder } from '../../../../contract/collections';
import { folderTrail, subfoldersOf } from './folder-tree';

const folder = (id: string, name: string, parentId: string | null, path: string, depth: number): Folder => ({ id, name, parentId, path, depth });

const folders = [
  folder('fo_a', 'Day 10', null, 'Day 10', 0),
  folder('fo_b', 'Day 2', null, 'Day 2', 0),
  folder('fo_c', 'Raw', 'fo_b', 'Day 2/Raw', 1),
  folder('fo_d', 'Edits', 'fo_b', 'Day 2/Edits', 1),
  folder('fo_e', 'Selects', 'fo_c', 'Day 2/Raw/Selects', 2),
];

describe('the folder tree of a collection', () => {
  it('lists the folders inside one, in the order people expect', () => {
    expect(subfoldersOf(folders, null).map((f) => f.name)).toEqual(['Day 2', 'Day 10']);
    expect(subfoldersOf(folders, 'fo_b').map((f) => f.name)).toEqual(['Edits', 'Raw']);
    expect(subfoldersOf(folders, 'fo_e')).toEqual([]);
  });

  it('gives the way down to a folder, top first', () => {
    expect(folderTrail(folders, undefined)).toEqual([]);
    expect(folderTrail(folders, 'fo_e')!.map((f) => f.name)).toEqual(['Day 2', 'Raw', 'Selects']);
    expect(folderTrail(folders, 'fo_a')!.map((f) => f.name)).toEqual(['Day 10']);
  });

  it('knows no way to a folder that is not in the collection, or whose parent is gone', () => {
    expect(folderTrail(folders, 'fo_unknown')).toBeNull();
    expect(folderTrail([folder('fo_x', 'Orphan', 'fo_gone', 'Gone/Orphan', 1)], 'fo_x')).toBeNull();
  });
});
