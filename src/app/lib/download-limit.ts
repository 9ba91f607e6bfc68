import { defineMessages } from 'react-intl';

/**
 * What the download limit counts, said the same way wherever it is set (the new-transfer form, the
 * transfer page), and as the API counts it (`downloadCount`: one visit, one download). A message:
 * `intl.formatMessage(downloadLimitMessages.rule)` where it is shown.
 */
export const downloadLimitMessages = defineMessages({
  rule: {
    id: 'common.downloadLimit.rule',
    defaultMessage:
      'One download is one visit to the link: it may take every file and the zip, and pick up an interrupted download, and counts once. Your own downloads never count.',
  },
});

