import { Card } from '../../../components/card';
import { useIntl } from '../../../lib/intl';
import { useCreateApiKey } from '../api/create-api-key';
import { CreateApiKeyForm } from './create-api-key-form';
import { NewApiKeySecret } from './new-api-key-secret';

/** The create form, replaced by the new secret after creation until the user is done with it. */
export function CreateApiKeySection({ plan }: { plan: 'free' | 'paid' }) {
  const intl = useIntl();
  const createKey = useCreateApiKey();
  return (
    <Card aria-labelledby={createKey.data ? undefined : 'create-key-heading'}>
      {createKey.data ? (
        <NewApiKeySecret created={createKey.data} onDone={() => createKey.reset()} />
      ) : (
        <>
          <h2 id="create-key-heading" className="mb-4 text-lg font-semibold">
            {intl.formatMessage({ id: 'keys.createSection.heading', defaultMessage: 'Create key' })}
          </h2>
          <CreateApiKeyForm
            plan={plan}
            pending={createKey.isPending}
            error={createKey.error}
            onCreate={(input, { onError }) => createKey.mutate(input, { onError })}
          />
        </>
      )}
    </Card>
  );
}
