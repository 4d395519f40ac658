import { Eye, FileText, History, Link2, MessageSquare, Paperclip } from 'lucide-react';

import type { Definition, RecordType } from '@wsc/api-client';

import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import { AttachmentsPanel } from '@/features/attachments/components/attachments-panel.tsx';
import { CommentsPanel } from '@/features/comments/components/comments-panel.tsx';
import { HistoryPanel } from '@/features/history/components/history-panel.tsx';
import { RelatedItemsPanel } from '@/features/related-items/components/related-items-panel.tsx';
import { WatchersPanel } from '@/features/watchers/components/watchers-panel.tsx';

import type { RecordTab } from './record-panel-search.ts';
import { RECORD_TABS, RecordPanelSearchSchema } from './record-panel-search.ts';

const TAB_LABELS: Record<RecordTab, { label: string; Icon: typeof FileText }> = {
  details: { label: 'Details', Icon: FileText },
  related: { label: 'Related', Icon: Link2 },
  attachments: { label: 'Attachments', Icon: Paperclip },
  watchers: { label: 'Watchers', Icon: Eye },
  comments: { label: 'Comments', Icon: MessageSquare },
  history: { label: 'History', Icon: History },
};

/**
 * The record panel's tabs. Details stays mounted while hidden, so unsaved edits survive a look
 * at the comments; the other tabs load when first shown.
 */
export function RecordTabs({
  tab,
  onTabChange,
  record,
  definitions,
  details,
}: {
  tab: RecordTab;
  onTabChange: (tab: RecordTab) => void;
  record: { recordType: RecordType; alias: string; id: string };
  definitions: Definition[];
  details: React.ReactNode;
}) {
  return (
    <Tabs
      value={tab}
      onValueChange={(value) =>
        onTabChange(RecordPanelSearchSchema.parse({ tab: value }).tab ?? 'details')
      }
      className="@container flex-1"
    >
      {/* Six tabs with icons fit a wide panel only: in the side panel the icons give way. */}
      <TabsList aria-label="Record sections" className="gap-0 px-2 @max-[40rem]:[&_svg]:hidden">
        {RECORD_TABS.map((value) => {
          const { label, Icon } = TAB_LABELS[value];
          return (
            <TabsTrigger key={value} value={value} className="px-2">
              <Icon aria-hidden="true" />
              {label}
            </TabsTrigger>
          );
        })}
      </TabsList>
      <TabsContent value="details" forceMount className="data-[state=inactive]:hidden">
        {details}
      </TabsContent>
      <TabsContent value="related" className="overflow-y-auto">
        <RelatedItemsPanel record={record} definitions={definitions} />
      </TabsContent>
      <TabsContent value="attachments" className="overflow-y-auto">
        <AttachmentsPanel record={record} />
      </TabsContent>
      <TabsContent value="watchers" className="overflow-y-auto">
        <WatchersPanel record={record} />
      </TabsContent>
      <TabsContent value="comments">
        <CommentsPanel record={record} />
      </TabsContent>
      <TabsContent value="history" className="overflow-y-auto">
        <HistoryPanel
          record={record}
          definition={definitions.find(
            (d) => d.recordType === record.recordType && d.alias === record.alias,
          )}
        />
      </TabsContent>
    </Tabs>
  );
}
