const LABELS: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/zip': 'ZIP archive',
  'application/json': 'JSON',
  'application/octet-stream': 'Binary file',
  'text/plain': 'Text',
  'text/csv': 'CSV',
  'text/uri-list': 'Link',
  'application/msword': 'Word document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word document',
  'application/vnd.ms-excel': 'Excel spreadsheet',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel spreadsheet',
};

/**
 * A short human label for a media type.
 *
 * @example
 * mediaTypeLabel('image/png'); // 'PNG image'
 * mediaTypeLabel('application/pdf'); // 'PDF'
 */
export function mediaTypeLabel(mediaType: string): string {
  const known = LABELS[mediaType];
  if (known) return known;
  const [type, subtype = ''] = mediaType.split('/');
  const short =
    subtype
      .replace(/^(x-|vnd\.)/, '')
      .split(/[.+]/)[0]
      ?.toUpperCase() ?? '';
  if (type === 'image') return `${short} image`;
  if (type === 'video') return `${short} video`;
  if (type === 'audio') return `${short} audio`;
  return short || mediaType;
}
