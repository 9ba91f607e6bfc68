/**
 * Multi-selection as file managers do it, over the keys of the items in their shown order:
 * `active` is the item the keyboard is on, `anchor` where a shift-extended range starts.
 * Pure functions, so the listbox's mouse and keyboard handling stay one-liners.
 */
export interface Selection {
  selected: ReadonlySet<string>;
  anchor: string | null;
  active: string | null;
}

export const noSelection: Selection = { selected: new Set(), anchor: null, active: null };

function range(keys: readonly string[], from: string | null, to: string): string[] {
  const end = keys.indexOf(to);
  const start = from === null ? -1 : keys.indexOf(from);
  if (start < 0) return [to];
  return keys.slice(Math.min(start, end), Math.max(start, end) + 1);
}

/** A click: alone selects just the item; with ctrl/cmd toggles it; with shift selects the range from the anchor (added to the rest with ctrl/cmd too). */
export function clickItem(selection: Selection, keys: readonly string[], key: string, modifiers: { toggle: boolean; extend: boolean }): Selection {
  if (modifiers.extend) {
    const span = range(keys, selection.anchor, key);
    const selected = modifiers.toggle ? new Set([...selection.selected, ...span]) : new Set(span);
    return { selected, anchor: selection.anchor ?? key, active: key };
  }
  if (modifiers.toggle) {
    const selected = new Set(selection.selected);
    if (selected.has(key)) selected.delete(key);
    else selected.add(key);
    return { selected, anchor: key, active: key };
  }
  return { selected: new Set([key]), anchor: key, active: key };
}

/** The keyboard moved to `key`: with shift the range from the anchor is selected, otherwise only focus moves (Space then selects). */
export function moveTo(selection: Selection, keys: readonly string[], key: string, extend: boolean): Selection {
  if (!extend) return { ...selection, active: key };
  const anchor = selection.anchor ?? selection.active ?? key;
  return { selected: new Set(range(keys, anchor, key)), anchor, active: key };
}

/** Space: the active item in or out of the selection. */
export function toggleActive(selection: Selection): Selection {
  const key = selection.active;
  if (key === null) return selection;
  const selected = new Set(selection.selected);
  if (selected.has(key)) selected.delete(key);
  else selected.add(key);
  return { selected, anchor: key, active: key };
}

export function selectAll(selection: Selection, keys: readonly string[]): Selection {
  return { ...selection, selected: new Set(keys), anchor: selection.anchor ?? keys[0] ?? null };
}

/** Escape: nothing selected; the keyboard stays where it was. */
export function clearSelection(selection: Selection): Selection {
  return { selected: new Set(), anchor: null, active: selection.active };
}

/** Drops what is no longer shown (deleted, moved away), keeping the keyboard on an item that is. */
export function keepShown(selection: Selection, keys: readonly string[]): Selection {
  const shown = new Set(keys);
  const selected = [...selection.selected].filter((key) => shown.has(key));
  const active = selection.active !== null && shown.has(selection.active) ? selection.active : null;
  const anchor = selection.anchor !== null && shown.has(selection.anchor) ? selection.anchor : null;
  if (selected.length === selection.selected.size && active === selection.active && anchor === selection.anchor) return selection;
  return { selected: new Set(selected), anchor, active };
}
