// Configures zod before its first parse (see the file).
import '../../../lib/zod-config';
import { useState } from 'react';
import { ContactInputSchema, type Contact, type ContactType } from '../../../../contract/contacts';
import { isLocale, type Locale } from '../../../../contract/locales';
import { LanguageOptions } from '../../../components/language-menu';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { ModalDialog } from '../../../components/modal-dialog';
import { SelectField, TextField } from '../../../components/text-field';
import { isApiRequestError } from '../../../lib/api-error';
import { currentIntl, useIntl } from '../../../lib/intl';
import { useCreateContact } from '../../../lib/contacts';
import { schemaFieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { MadeBy } from '../../transfers';
import { useReplaceContact } from '../api/replace-contact';

const fields = ['email', 'firstName', 'lastName', 'company', 'phone'] as const;
type Field = (typeof fields)[number];

/** The contract's own rules, so the form refuses exactly what the API would. */
function validate(values: Record<Field, string>): FieldErrors<Field> {
  const errors = schemaFieldErrors(ContactInputSchema.safeParse(values), fields);
  if (values.email.trim() === '') errors.email = currentIntl().formatMessage({ id: 'contacts.form.emailRequired', defaultMessage: 'Enter the contact’s email address.' });
  return errors;
}

/**
 * Adding a contact, or editing one (every field is sent: the API replaces the whole contact), which
 * says who made it. An address already in the address book is said next to the email field, not as
 * a general failure.
 */
export function ContactFormDialog({ contact, onClose, onSaved }: { contact?: Contact; onClose: () => void; onSaved: (contact: Contact) => void }) {
  const intl = useIntl();
  const create = useCreateContact();
  const replace = useReplaceContact();
  const mutation = contact ? replace : create;
  const [type, setType] = useState<ContactType>(contact?.type === 'company' ? 'company' : 'person');
  const [language, setLanguage] = useState<Locale | ''>(isLocale(contact?.language) ? contact.language : '');
  const form = useValidatedForm(
    fields,
    {
      email: contact?.email ?? '',
      firstName: contact?.firstName ?? '',
      lastName: contact?.lastName ?? '',
      company: contact?.company ?? '',
      phone: contact?.phone ?? '',
    },
    validate,
  );

  const onSubmit = form.handleSubmit((values) => {
    const input = { ...values, type, language };
    const done = { onSuccess: onSaved, onError: form.showServerErrors };
    if (contact) replace.mutate({ id: contact.id, input }, done);
    else create.mutate(input, done);
  });

  const duplicate = isApiRequestError(mutation.error) && mutation.error.details.reason === 'contact_exists';
  const emailField = form.field('email');
  const general = mutation.error && !duplicate && !(isApiRequestError(mutation.error) && mutation.error.fieldErrors.length > 0) ? mutation.error : null;

  return (
    <ModalDialog
      title={
        contact
          ? intl.formatMessage({ id: 'contacts.form.editTitle', defaultMessage: 'Edit contact' })
          : intl.formatMessage({ id: 'contacts.form.addTitle', defaultMessage: 'Add contact' })
      }
      description={contact?.createdBy ? <MadeBy by={contact.createdBy} verb="made" /> : undefined}
      onClose={onClose} busy={mutation.isPending}>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <TextField
          label={intl.formatMessage({ id: 'contacts.form.email', defaultMessage: 'Email' })}
          type="email"
          autoComplete="off"
          inputMode="email"
          spellCheck={false}
          {...emailField}
          error={
            emailField.error ??
            (duplicate ? intl.formatMessage({ id: 'contacts.form.duplicate', defaultMessage: 'Another contact already has this address.' }) : undefined)
          }
          onChange={(event) => {
            mutation.reset();
            emailField.onChange(event);
          }}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={intl.formatMessage({ id: 'contacts.form.firstName', defaultMessage: 'First name' })} autoComplete="off" {...form.field('firstName')} />
          <TextField label={intl.formatMessage({ id: 'contacts.form.lastName', defaultMessage: 'Last name' })} autoComplete="off" {...form.field('lastName')} />
        </div>
        <TextField label={intl.formatMessage({ id: 'contacts.form.company', defaultMessage: 'Company' })} autoComplete="off" {...form.field('company')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={intl.formatMessage({ id: 'contacts.form.phone', defaultMessage: 'Phone' })} type="tel" autoComplete="off" {...form.field('phone')} />
          <SelectField
            label={intl.formatMessage({ id: 'contacts.form.type', defaultMessage: 'Type' })}
            value={type}
            onChange={(event) => setType(event.target.value === 'company' ? 'company' : 'person')}
          >
            <option value="person">{intl.formatMessage({ id: 'contacts.form.typePerson', defaultMessage: 'Person' })}</option>
            <option value="company">{intl.formatMessage({ id: 'contacts.form.typeCompany', defaultMessage: 'Company' })}</option>
          </SelectField>
        </div>
        <SelectField
          label={intl.formatMessage({ id: 'contacts.form.language', defaultMessage: 'Language of their mail' })}
          hint={intl.formatMessage({
            id: 'contacts.form.languageHint',
            defaultMessage: 'Transfers you send them are mailed in it, unless you pick another for one transfer.',
          })}
          value={language}
          onChange={(event) => setLanguage(isLocale(event.target.value) ? event.target.value : '')}
        >
          <option value="">{intl.formatMessage({ id: 'contacts.form.languageSameAsYours', defaultMessage: 'The same as yours' })}</option>
          <LanguageOptions />
        </SelectField>
        {general ? <FormError error={general} /> : null}
        <div className="flex flex-wrap justify-end gap-3 pt-2">
          <Button variant="secondary" onClick={onClose} disabled={mutation.isPending}>
            {intl.formatMessage({ id: 'contacts.form.cancel', defaultMessage: 'Cancel' })}
          </Button>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending
              ? intl.formatMessage({ id: 'contacts.form.saving', defaultMessage: 'Saving…' })
              : contact
                ? intl.formatMessage({ id: 'contacts.form.save', defaultMessage: 'Save changes' })
                : intl.formatMessage({ id: 'contacts.form.add', defaultMessage: 'Add contact' })}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
