/**
 * Class names for a table of records that stacks on a phone: from `sm` up it is a table that
 * scrolls sideways in its card rather than squeezing its columns; below `sm` each row is a block
 * of labelled lines (each cell shows its column's name from `data-label` before its value), so
 * the page never scrolls sideways. The header row stays for screen readers only.
 */
export const stackedTable = {
  /** The scroll container around the table (give it `tabIndex={0}`, a role and a label, as it scrolls). */
  wrapper: '-mx-5 overflow-x-auto max-sm:mx-0',
  /** The table itself; `minWidth` is a Tailwind class like `sm:min-w-[44rem]` (the width the columns need). */
  table: (minWidth: string) => `w-full text-sm max-sm:block ${minWidth}`,
  head: 'border-b border-zinc-200 max-sm:sr-only dark:border-zinc-800',
  headCell: 'px-3 py-2 text-start text-xs font-medium tracking-wide text-zinc-600 uppercase dark:text-zinc-400',
  body: 'divide-y divide-zinc-100 max-sm:block dark:divide-zinc-800',
  row: 'max-sm:block max-sm:py-3',
  /** The row's first cell, naming the record: a heading line on a phone. */
  rowHeader: 'px-3 py-2 ps-5 text-start align-top font-medium break-all max-sm:block max-sm:px-0 max-sm:pb-1',
  /** Every other cell; give it `data-label` with its column's name. */
  cell: 'px-3 py-2 align-top max-sm:flex max-sm:gap-3 max-sm:px-0 max-sm:py-0.5 max-sm:before:w-16 max-sm:before:shrink-0 max-sm:before:text-xs max-sm:before:leading-5 max-sm:before:text-zinc-600 max-sm:before:font-sans max-sm:before:content-[attr(data-label)] dark:max-sm:before:text-zinc-400',
  /** The last cell of a row (its end padding, off on a phone). */
  lastCell: 'pe-5 max-sm:pe-0',
};
