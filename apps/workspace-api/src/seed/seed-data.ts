// Word pools for the demo support desk: people, companies, and the templates tickets, tasks,
// comments and refunds are written from. Plain data; generation lives in seed-records.ts.

export const FIRST_NAMES = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Mateo', 'Sophia', 'Lucas', 'Isabella', 'Ethan', 'Mia', 'Aiden',
  'Amara', 'Kenji', 'Priya', 'Diego', 'Fatima', 'Jamal', 'Chloe', 'Ravi', 'Hannah', 'Marcus', 'Yuki', 'Grace',
  'Omar', 'Leah', 'Daniel', 'Zoe', 'Samuel', 'Nina', 'Tariq', 'Elena', 'Jonah', 'Aaliyah', 'Victor', 'Maya',
] as const;

export const LAST_NAMES = [
  'Johnson', 'Martinez', 'Nguyen', 'Patel', 'Kim', 'Okafor', 'Garcia', 'Chen', 'Williams', 'Brown', 'Rossi',
  'Silva', 'Hernandez', 'Walker', 'Tanaka', 'Singh', 'Adeyemi', 'Cohen', 'Murphy', 'Lopez', 'Anderson', 'Ali',
  'Thompson', 'Moreau', 'Ivanova', 'Clarke', 'Baptiste', 'Novak', 'Haddad', 'Fischer', 'Osei', 'Reyes',
] as const;

/** The EU region's pools lean European. */
export const EU_FIRST_NAMES = [
  'Lena', 'Jonas', 'Sofia', 'Luca', 'Camille', 'Hugo', 'Marta', 'Mateusz', 'Ingrid', 'Lars', 'Chiara', 'Pablo',
  'Eva', 'Niklas', 'Aoife', 'Sean', 'Zofia', 'Tomasz', 'Inès', 'Émile', 'Freya', 'Anders', 'Giulia', 'Jakub',
  'Clara', 'Matthias', 'Elif', 'Mehmet', 'Ana', 'João', 'Sanne', 'Daan', 'Petra', 'Milan', 'Alba', 'Oskar',
] as const;

export const EU_LAST_NAMES = [
  'Müller', 'Schmidt', 'Rossi', 'Bianchi', 'Dubois', 'Lefèvre', 'García', 'Fernández', 'Kowalski', 'Nowak',
  'Jansen', 'de Vries', 'Andersson', 'Johansson', 'Murphy', "O'Brien", 'Novák', 'Horváth', 'Silva', 'Santos',
  'Yılmaz', 'Kaya', 'Nielsen', 'Hansen', 'Virtanen', 'Korhonen', 'Papadopoulos', 'Costa', 'Weber', 'Fischer',
] as const;

export const JOB_TITLES = {
  tier1: ['Support Agent', 'Customer Support Specialist', 'Support Associate', 'Help Desk Analyst'],
  tier2: ['Senior Support Engineer', 'Technical Support Engineer', 'Escalations Specialist'],
  billing: ['Billing Specialist', 'Accounts Receivable Analyst', 'Billing Operations Lead'],
  engineering: ['Software Engineer', 'Site Reliability Engineer', 'Engineering Manager', 'QA Engineer'],
  success: ['Customer Success Manager', 'Account Manager', 'Onboarding Specialist'],
  admins: ['Support Operations Manager', 'IT Administrator', 'Head of Support'],
} as const;

export const COMPANY_PREFIXES = [
  'Acme', 'Blue Harbor', 'Northwind', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Cyberdyne', 'Hooli',
  'Pied Piper', 'Vandelay', 'Soylent', 'Tyrell', 'Wonka', 'Aperture', 'Black Mesa', 'Massive Dynamic',
  'Oscorp', 'Gringotts', 'Dunder Mifflin', 'Prestige', 'Sterling', 'Bluth', 'Monarch', 'Nakatomi', 'Oceanic',
  'Virtucon', 'Zorg', 'Gekko', 'Tessier', 'Abstergo', 'Rekall', 'Veridian', 'Helix', 'Quantum Leaf', 'Red Rock',
  'Silver Birch', 'Copperline', 'Evergreen', 'Brightwave', 'Pinecrest', 'Lakeshore', 'Summit', 'Granite',
] as const;

export const EU_COMPANY_PREFIXES = [
  'Nordlicht', 'Alpenblick', 'Rheinwerk', 'Baltic', 'Lumière', 'Bellavista', 'Sol y Mar', 'Vistula', 'Danube',
  'Fjord', 'Iberia', 'Tulip', 'Celtic', 'Adriatic', 'Helvetia', 'Carpathia', 'Aurora Borealis', 'Mistral',
  'Edelweiss', 'Bodensee', 'Riviera', 'Kattegat', 'Porto Azul', 'Hanse', 'Montmartre', 'Tatra', 'Elbe', 'Loire',
] as const;

export const COMPANY_SUFFIXES = ['Inc.', 'Corp', 'Labs', 'Systems', 'Logistics', 'Health', 'Foods', 'Media', 'Group', 'Analytics', 'Retail', 'Energy'] as const;
export const EU_COMPANY_SUFFIXES = ['GmbH', 'AG', 'S.A.', 'S.r.l.', 'B.V.', 'AB', 'Oy', 'Ltd', 'SAS', 'ApS', 'sp. z o.o.', 'Group'] as const;

export const PRODUCT_AREAS = [
  'SSO login', 'CSV export', 'mobile app', 'invoice PDF', 'API tokens', 'webhooks', 'dashboard', 'search',
  'email notifications', 'calendar sync', 'user provisioning', 'audit log', 'file uploads', 'reports',
  'Slack integration', 'two-factor authentication', 'billing portal', 'data import', 'permissions', 'workflow builder',
] as const;

export const ERROR_CODES = ['500', '502', '503', '403', '429', 'E_TIMEOUT', 'ERR_SYNC_42', 'QUOTA_EXCEEDED', 'INVALID_GRANT', 'CONFLICT'] as const;

/** `{area}`, `{code}`, `{count}`, `{browser}`, `{weekday}` are filled in. */
export const TICKET_TITLES = {
  Technical: [
    '{area} fails with error {code}',
    'Slow response times in {area} since this morning',
    'Cannot load {area} in {browser}',
    '{area} times out for large accounts',
    'Intermittent {code} errors on {area}',
    '{area} shows a blank page after update',
  ],
  Bug: [
    '{area}: wrong totals shown',
    'Duplicate entries created by {area}',
    '{area} ignores time zone settings',
    'Regression: {area} broken after last release',
    '{area} drops the last {count} rows',
    'Sorting in {area} is inconsistent',
  ],
  Account: [
    'Cannot log in after password reset',
    'Locked out after enabling {area}',
    'Need to transfer account ownership',
    'Please add {count} seats to our account',
    'User deactivated by mistake',
    'Change the primary contact email',
  ],
  Billing: [
    'Charged twice for the {weekday} invoice',
    'Invoice shows the wrong VAT number',
    'Downgrade request: too many seats billed',
    'Refund request for unused {count} seats',
    'Credit card declined but payment taken',
    'Need a copy of last quarter invoices',
  ],
  'Feature Request': [
    'Allow bulk editing in {area}',
    'Please support dark mode in {area}',
    'Export {area} data as Excel',
    'Add an API endpoint for {area}',
    'Custom fields for {area}',
    'Schedule {area} reports weekly',
  ],
  Other: [
    'Question about data retention',
    'Request for a security questionnaire',
    'How do we set up {area}?',
    'Training session for {count} new users',
    'GDPR data export request',
    'Feedback on the new {area}',
  ],
} as const;

export const DESCRIPTION_OPENERS = [
  'Hi team,',
  'Hello support,',
  'Good morning,',
  'Hi there,',
  'Dear support team,',
] as const;

export const DESCRIPTION_BODIES = [
  'Since {weekday} several of our users report that {area} stops working. The error shown is {code}.',
  'We noticed this right after the latest update. It affects about {count} people in our team.',
  'Steps to reproduce: open {area}, pick any item, press save. The page hangs and then shows {code}.',
  'This is blocking our month-end close, so a quick answer would be much appreciated.',
  'We tried clearing the cache and a different browser ({browser}) without success.',
  'Our admin checked the permissions and everything looks correct on our side.',
  'Could you tell us whether this is a known issue and if there is a workaround?',
  'Screenshots and the exported log are attached to this ticket.',
] as const;

export const DESCRIPTION_CLOSERS = ['Thanks!', 'Best regards,', 'Thank you in advance.', 'Cheers,', 'Kind regards,'] as const;

export const BROWSERS = ['Chrome', 'Firefox', 'Safari', 'Edge'] as const;
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] as const;

export const COMMENT_TEXTS = [
  'Thanks for reaching out. I am looking into this now.',
  'I could reproduce the issue on our staging environment.',
  'Escalating to Tier 2 with the logs attached.',
  'Could you send us the exact time the error happened and the affected user?',
  'Customer confirmed the workaround works for now.',
  'Engineering identified the root cause; a fix is scheduled for the next release.',
  'Following up: are you still seeing this problem?',
  'Refund approved and processed by billing.',
  'Closing this ticket as resolved. Feel free to reopen if it happens again.',
  'Linked to the related task so we can track the fix.',
  'Called the customer and walked them through the settings.',
  'The issue is caused by a browser extension; disabling it fixes the problem.',
] as const;

export const TASK_TITLES = [
  'Investigate {area} performance',
  'Write knowledge-base article about {area}',
  'Reproduce {code} on staging',
  'Update the runbook for {area}',
  'Review escalations from last week',
  'Prepare onboarding call for a new customer',
  'Clean up duplicate accounts',
  'Add monitoring for {area}',
  'Patch {area} edge case',
  'Audit permissions for {area}',
] as const;

export const REFUND_REASONS = [
  'Duplicate charge',
  'Unused seats after downgrade',
  'Service outage credit',
  'Billed after cancellation',
  'Wrong plan charged',
  'Goodwill credit',
  'Annual plan proration',
] as const;
