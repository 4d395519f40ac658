// A minimal react-admin 5 app: one resource, `tickets`, listed by <List> + <Datagrid> with the
// columns the console's records table shows for support tickets, all rows on one page. The rows
// (and the columns) come from `tickets.json?rows=N`, which the bench serves: the same support
// tickets the console gets from the API, held in memory by ra-data-fakerest. `?rows=N` in the page
// URL picks N, so one build serves every row count.
import fakeDataProvider from 'ra-data-fakerest';
import { StrictMode } from 'react';
import { Admin, Datagrid, DateField, List, memoryStore, Resource, TextField } from 'react-admin';
import { createRoot } from 'react-dom/client';

type Column = { source: string; label: string; type: 'text' | 'date' | 'datetime' };
type Payload = { columns: Column[]; items: Array<{ data: Record<string, unknown> }> };

const rows = Number(new URLSearchParams(window.location.search).get('rows') ?? '1000');

function TicketList({ columns }: { columns: Column[] }) {
  return (
    <List perPage={rows} pagination={false} disableSyncWithLocation>
      <Datagrid rowClick={false}>
        {columns.map((column) =>
          column.type === 'text' ? (
            <TextField key={column.source} source={column.source} label={column.label} />
          ) : (
            <DateField
              key={column.source}
              source={column.source}
              label={column.label}
              showTime={column.type === 'datetime'}
            />
          ),
        )}
      </Datagrid>
    </List>
  );
}

async function main() {
  const response = await fetch(`/tickets.json?rows=${rows}`);
  const payload = (await response.json()) as Payload;
  const tickets = payload.items.map((item) => item.data);
  const dataProvider = fakeDataProvider({ tickets }, false);
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root');
  createRoot(root).render(
    <StrictMode>
      <Admin dataProvider={dataProvider} store={memoryStore()} disableTelemetry>
        <Resource name="tickets" list={<TicketList columns={payload.columns} />} />
      </Admin>
    </StrictMode>,
  );
}

void main();
