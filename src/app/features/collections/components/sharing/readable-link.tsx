import { useState, type FormEvent } from 'react';
import type { IntlShape } from 'react-intl';
import type { Collection } from '../../../../../contract/collections';
import { READABLE_SLUG_MAX, readableSlugProblem } from '../../../../../contract/readable-slugs';
import { Button } from '../../../../components/button';
import { FormField, inputClass } from '../../../../components/text-field';
import { fieldProblemAtField, isApiRequestError } from '../../../../lib/api-error';
import { useIntl } from '../../../../lib/intl';
import { useUpdateCollection } from '../../api/update-collection';

/** A readable name from a title: "Spring Lookbook 2027!" is `spring-lookbook-2027`. */
export function slugSuggestion(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, READABLE_SLUG_MAX)
    .replace(/-+$/, '');
}

/** What to say beside the field of the API's answer: a taken name, the problem the API found with it, or the error. */
function messageOf(error: unknown, intl: IntlShape): string {
  if (isApiRequestError(error)) {
    if (error.details.reason === 'slug_taken')
      return intl.formatMessage({ id: 'collections.readableLink.taken', defaultMessage: 'Another collection has or had this name. Pick another.' });
    const field = error.fieldErrors.find((f) => f.path === 'slug');
    if (field) return fieldProblemAtField(field);
  }
  return error instanceof Error ? error.message : intl.formatMessage({ id: 'collections.readableLink.failed', defaultMessage: 'The link could not be renamed. Try again.' });
}

/**
 * Renames the collection's link to a readable name (`/c/spring-lookbook`). Every name it had keeps working,
 * redirected here, so renaming breaks no link already sent; a readable name can be guessed, which the hint says.
 */
export function ReadableLink({ collection }: { collection: Pick<Collection, 'id' | 'slug' | 'title' | 'url'> }) {
  const intl = useIntl();
  const update = useUpdateCollection(collection.id);
  const readable = readableSlugProblem(collection.slug) === null;
  const [slug, setSlug] = useState(readable ? collection.slug : slugSuggestion(collection.title));
  const [problem, setProblem] = useState<string | null>(null);
  const prefix = collection.url ? collection.url.slice(0, collection.url.length - collection.slug.length) : '/c/';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wrong = readableSlugProblem(slug);
    setProblem(wrong ? fieldProblemAtField({ path: 'slug', message: wrong }) : null);
    if (!wrong && slug !== collection.slug) update.mutate({ slug });
  };

  const error = problem ?? (update.error ? messageOf(update.error, intl) : undefined);
  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <FormField
        label={intl.formatMessage({ id: 'collections.readableLink.label', defaultMessage: 'Readable link' })}
        error={error}
        hint={
          update.isSuccess && !error
            ? intl.formatMessage({ id: 'collections.readableLink.renamed', defaultMessage: 'Renamed. Links sent before still open the collection.' })
            : intl.formatMessage({
                id: 'collections.readableLink.hint',
                defaultMessage:
                  'Lower-case letters, digits and hyphens. Links sent before keep working. A readable name can be guessed: a collection for invited people only stays Private.',
              })
        }
      >
        {(control) => (
          <div className="flex flex-wrap items-center gap-2">
            <span className="max-w-full truncate font-mono text-xs text-zinc-600 dark:text-zinc-400">{prefix}</span>
            <input
              {...control}
              value={slug}
              onChange={(event) => setSlug(event.target.value.toLowerCase())}
              autoComplete="off"
              spellCheck={false}
              maxLength={READABLE_SLUG_MAX}
              className={`${inputClass} w-auto min-w-0 flex-1 font-mono`}
            />
            <Button type="submit" variant="secondary" disabled={update.isPending || slug === collection.slug}>
              {update.isPending
                ? intl.formatMessage({ id: 'collections.readableLink.renaming', defaultMessage: 'Renaming…' })
                : intl.formatMessage({ id: 'collections.readableLink.rename', defaultMessage: 'Rename link' })}
            </Button>
          </div>
        )}
      </FormField>
    </form>
  );
}
