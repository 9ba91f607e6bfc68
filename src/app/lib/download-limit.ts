/**
 * What the download limit counts, said the same way wherever it is set (the new-transfer form, the
 * transfer page), and as the API counts it (`downloadCount`: one visit, one download).
 */
export const downloadLimitRule =
  'One download is one visit to the link: it may take every file and the zip, and pick up an interrupted download, and counts once. Your own downloads never count.';
