import type { Field } from '@wsc/api-client';

import { splitMulti } from '@/components/field-editor.tsx';
import { formatDate, formatDateTime } from '@/lib/format.ts';

/**
 * How one stored string reads in a table cell: dates in the viewer's zone, picklists as tags.
 *
 * @example
 * <CellValue field={{ name: 'Due Date', type: 'DATE', required: false }} value="2024-05-01T00:00:00.000Z" />
 */
export function CellValue({ field, value }: { field: Field; value: string | undefined }) {
  if (value === undefined || value === '') {
    return <span className="text-muted-foreground">—</span>;
  }
  switch (field.type) {
    case 'DATETIME':
      return (
        <time dateTime={value} title={value}>
          {formatDateTime(value)}
        </time>
      );
    case 'DATE':
      return <time dateTime={value.slice(0, 10)}>{formatDate(value)}</time>;
    case 'PICKLIST':
      return (
        <span className="inline-flex items-center gap-1.5 rounded-md border px-1.5 py-0.5 text-xs font-medium">
          {value}
        </span>
      );
    case 'MULTI_PICKLIST':
      return (
        <span className="inline-flex gap-1">
          {splitMulti(value).map((tag) => (
            <span
              key={tag}
              className="bg-secondary text-secondary-foreground rounded-md px-1.5 py-0.5 text-xs"
            >
              {tag}
            </span>
          ))}
        </span>
      );
    case 'BOOLEAN':
      return <span>{value === 'true' ? 'Yes' : value === 'false' ? 'No' : value}</span>;
    case 'NUMBER':
    case 'DECIMAL':
      return <span className="tabular-nums">{value}</span>;
    default:
      return <span title={value.length > 40 ? value : undefined}>{value}</span>;
  }
}
