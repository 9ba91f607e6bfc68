import { defineMessages } from 'react-intl';

/** Words said in more than one of the vault's components, each the same message wherever it shows. */
export const vaultMessages = defineMessages({
  /** The page's title, and the name of the vault's top folder (its breadcrumb, the zip of all of it). */
  title: { id: 'vault.title', defaultMessage: 'Vault' },
  description: { id: 'vault.description', defaultMessage: 'Your private files, encrypted in this browser with a passphrase only you know.' },
  /** The locked vault's link to recovery, which the recovery file names too. */
  forgotButton: { id: 'vault.unlock.forgot', defaultMessage: 'Forgot it? Use your recovery code' },
});
