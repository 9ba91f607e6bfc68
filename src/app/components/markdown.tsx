import type { ReactNode } from 'react';

/**
 * A deliberately tiny renderer for the markdown-ish text in our OpenAPI document and error
 * explanations. Everything becomes React text nodes; nothing is ever parsed as HTML.
 */

const codeClass = 'rounded bg-zinc-100 px-1 py-0.5 text-[0.85em] text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200';

/** Backtick spans become <code>; everything else stays text. */
export function InlineText({ text }: { text: string }) {
  const parts = text.split(/`([^`\n]+)`/);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <code key={index} className={codeClass}>
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

type Block = { kind: 'heading'; level: number; text: string } | { kind: 'list'; items: string[] } | { kind: 'paragraph'; lines: string[] };

function toBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of text.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk.split('\n').filter((line) => line.trim() !== '');
    let paragraph: string[] = [];
    let list: string[] = [];
    const flush = () => {
      if (paragraph.length) blocks.push({ kind: 'paragraph', lines: paragraph });
      if (list.length) blocks.push({ kind: 'list', items: list });
      paragraph = [];
      list = [];
    };
    for (const line of lines) {
      const heading = /^(#{1,6})\s+(.*)$/.exec(line);
      const item = /^\s*[-*]\s+(.*)$/.exec(line);
      if (heading) {
        flush();
        blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]! });
      } else if (item) {
        if (paragraph.length) flush();
        list.push(item[1]!);
      } else {
        if (list.length) flush();
        paragraph.push(line);
      }
    }
    flush();
  }
  return blocks;
}

/**
 * Paragraphs (line breaks kept), `#` headings and `-` lists. `headingLevel` is the HTML level a
 * top-level `#` maps to, so the text fits the outline of the page it sits in.
 */
export function MarkdownText({ text, headingLevel = 3 }: { text: string; headingLevel?: number }) {
  return (
    <div className="space-y-3">
      {toBlocks(text).map((block, index) => {
        if (block.kind === 'heading') {
          const level = Math.min(6, headingLevel + block.level - 1);
          const Tag = `h${level}` as 'h3';
          return (
            <Tag key={index} className="pt-2 text-base font-semibold text-zinc-900 dark:text-zinc-100">
              <InlineText text={block.text} />
            </Tag>
          );
        }
        if (block.kind === 'list') {
          return (
            <ul key={index} className="list-disc space-y-1 ps-5">
              {block.items.map((item, itemIndex) => (
                <li key={itemIndex}>
                  <InlineText text={item} />
                </li>
              ))}
            </ul>
          );
        }
        return (
          <p key={index}>
            {block.lines.map((line, lineIndex): ReactNode[] => [
              lineIndex > 0 ? <br key={`br${lineIndex}`} /> : null,
              <InlineText key={lineIndex} text={line} />,
            ])}
          </p>
        );
      })}
    </div>
  );
}
