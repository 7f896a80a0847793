// The fact-change suite of `pnpm eval`: what an agent stores about people, projects and teams,
// then a change of one of those facts written later, and a question the change answers; plus
// look-alike pairs that are NOT changes (two people's cities, two services' ports, an addition).
// Written for memsvc and generated from the tables below, so every label is exact: each change
// scenario and each look-alike pair is one tenant of its own.

/**
 * Change scenarios: [topic, the fact as first stored, its replacement written later, a question
 * the replacement answers]. The topic (subject:relation) keeps a scenario's distractors off its
 * own subject; several questions share no word with the replacement ("what car do I drive?").
 */
const CHANGES = [
  ['me:home', 'I live in Paris', 'I moved to Berlin last month, so I live in Berlin now', 'where do I live?'],
  ['me:car', 'I drive a 2015 Honda Civic', 'I sold the Civic and bought a Tesla Model 3', 'what car do I drive?'],
  [
    'auth:port',
    'The auth service listens on port 8080',
    'The auth service now listens on port 9443',
    'which port does the auth service use?',
  ],
  ['priya:manager', "Priya's manager is Tom Becker", 'Priya now reports to Sandra Ruiz after the reorg', "who is Priya's manager?"],
  [
    'atlas:release',
    'The Atlas 2.0 release is planned for March 14',
    'The Atlas 2.0 release slipped to April 2',
    'when does Atlas 2.0 ship?',
  ],
  ['me:diet', "I'm vegetarian", 'I went vegan in January', 'what diet do I follow?'],
  ['me:rent', 'My rent is $1,450 a month', 'My rent went up to $1,620 a month', 'how much is my rent?'],
  ['me:editor', 'I use VS Code for everything', 'I switched from VS Code to Neovim', 'which editor do I use?'],
  ['blog:hosting', 'Our blog is hosted on Netlify', 'We moved the blog from Netlify to Cloudflare Pages', 'where is the blog hosted?'],
  [
    'marco:phone',
    "Marco's phone number is +39 347 555 0192",
    'Marco has a new phone number: +39 320 555 7781',
    'how do I reach Marco by phone?',
  ],
  [
    'grant:deadline',
    'The grant proposal is due on 15 May',
    'The grant proposal deadline moved to 29 May',
    'when is the grant proposal due?',
  ],
  ['api:node', 'The API runs on Node 18', 'We upgraded the API to Node 22', 'what Node version does the API run on?'],
  ['billing:owner', 'Kenji owns the billing service', 'Ownership of the billing service passed from Kenji to Amara', 'who owns billing?'],
  [
    'me:gym',
    'I go to the gym on Tuesdays and Thursdays',
    'As of Monday I go to the gym on Mondays and Fridays instead',
    'which days do I work out?',
  ],
  ['lena:city', 'Lena lives in Munich', 'Lena relocated to Vienna in the spring', 'what city is Lena in?'],
  ['team:standup', 'Daily standup is at 9:30', 'Daily standup moved to 10:15 starting this week', 'what time is standup?'],
  [
    'db:version',
    'The production database is PostgreSQL 14',
    'The production database was upgraded to PostgreSQL 16',
    'which Postgres version is prod on?',
  ],
  ['me:employer', 'I work at Shopify', 'I left Shopify and joined Stripe', 'where do I work?'],
  ['sara:title', 'Sara is a senior engineer', 'Sara got promoted to staff engineer', "what is Sara's role?"],
  ['me:coffee', 'I take my coffee with oat milk', 'I no longer take oat milk; I drink my coffee black now', 'how do I take my coffee?'],
  ['ci:provider', 'Our CI runs on CircleCI', 'CI was migrated to GitHub Actions', 'what CI do we use?'],
  ['me:laptop', 'My laptop is a ThinkPad X1 Carbon', 'I replaced the ThinkPad with a MacBook Air M3', 'what laptop do I have?'],
  ['office:address', 'The office is at 12 Baker Street', 'We moved the office to 48 Canal Road', "what's the office address?"],
  ['me:wakeup', 'I wake up at 6:00 every day', 'These days I wake up at 7:30', 'when do I get up?'],
  ['ravi:email', "Ravi's email is ravi@oldco.io", "Ravi's email changed to ravi.k@newco.com", "what is Ravi's email address?"],
  [
    'budget:q3',
    'The Q3 marketing budget is 40,000 euros',
    'Finance cut the Q3 marketing budget to 32,000 euros',
    'how big is the Q3 marketing budget?',
  ],
  ['me:dentist', 'My dentist is Dr. Okafor', 'I switched dentists: my dentist is now Dr. Lindqvist', 'who is my dentist?'],
  [
    'dashboard:framework',
    'The dashboard frontend is built with Vue 2',
    'We rewrote the dashboard frontend in React 18',
    'what framework is the dashboard written in?',
  ],
  ['me:phone', 'I have an iPhone 12', 'Upgraded my phone to a Pixel 8', 'what phone do I use?'],
  [
    'mobile:launch',
    'The mobile app launches on June 3',
    'The mobile app launch was pushed back to June 24',
    'when does the mobile app launch?',
  ],
  ['tomas:team', 'Tomás is on the payments team', 'Tomás transferred to the search team', 'which team is Tomás on?'],
  ['me:commute', 'I commute to work by train', 'I commute to work by bike now', 'how do I get to work?'],
  ['me:language', "I'm learning Spanish", 'I gave up Spanish and started learning Japanese', 'which language am I learning?'],
  ['api:region', 'The API servers run in us-east-1', 'The API servers moved to eu-west-1', 'which region are the API servers in?'],
  ['me:salary', 'My salary is 85,000 a year', 'After the raise my salary is 92,000 a year', 'how much do I earn?'],
  ['oncall:lead', 'Jules is the on-call lead this quarter', 'Mei took over as on-call lead from Jules', 'who leads on-call?'],
  ['me:bank', 'I bank with Barclays', 'I moved my accounts from Barclays to Monzo', 'which bank do I use?'],
  ['sprint:length', 'Our sprints are two weeks long', 'We switched to one-week sprints', 'how long are our sprints?'],
  ['me:insurance', 'My car insurance is with Allianz', 'My car insurance renewed with AXA instead of Allianz', 'who insures my car?'],
  ['docs:tool', 'Team docs live in Confluence', 'We moved the team docs to Notion', 'where are the team docs?'],
  ['kim:address', 'Kim lives at 5 Elm Court', "Kim's new address is 17 Harbour Lane", 'where does Kim live?'],
  ['me:weight', 'I weigh 82 kg', "I'm down to 76 kg", 'how much do I weigh?'],
  [
    'search:engine',
    'Search is powered by Elasticsearch 7',
    'We replaced Elasticsearch with OpenSearch 2.11 for search',
    'what powers search?',
  ],
  ['me:timezone', "I'm on Pacific time", "I'm on Central European Time now", 'what timezone am I in?'],
  ['phoenix:lead', 'Project Phoenix is led by Ingrid', 'Ingrid handed Project Phoenix over to Olu', 'who leads Phoenix?'],
  ['me:band', 'My favourite band is Radiohead', 'These days my favourite band is Khruangbin', "what's my favourite band?"],
  ['payroll:day', 'Payroll runs on the 25th of each month', 'Payroll now runs on the 28th of each month', 'when is payday?'],
  ['me:landlord', 'My landlord is Mr. Haddad', 'The flat was sold; my landlord is now Greenfield Estates', 'who is my landlord?'],
  [
    'pipeline:python',
    'The data pipeline uses Python 3.9',
    'The data pipeline is on Python 3.12 now',
    'which Python does the pipeline use?',
  ],
  ['nora:desk', 'Nora sits at desk 4B', 'Nora moved to desk 7A', 'where does Nora sit?'],
  [
    'me:school',
    'My daughter goes to Hillside Primary',
    'My daughter changed schools to Riverside Academy',
    'which school does my daughter attend?',
  ],
  [
    'assets:cdn',
    'Static assets are served from Fastly',
    'As of Monday static assets are served from Bunny CDN',
    'which CDN serves static assets?',
  ],
  [
    'me:race',
    "I'm training for the Leeds 10K",
    'I dropped the Leeds 10K and signed up for the Bath Half Marathon',
    'what race am I training for?',
  ],
  [
    'board:meeting',
    'The board meeting is on 12 September',
    'The board meeting was rescheduled to 19 September',
    'when is the board meeting?',
  ],
  ['chen:office', 'Chen works from the London office', 'Chen now works remotely from Lisbon', 'where does Chen work from?'],
  ['me:passwords', 'I use LastPass as my password manager', 'Switched from LastPass to 1Password', 'which password manager do I use?'],
  ['sdk:version', 'The iOS SDK is at version 4.2.1', 'We released version 4.3.0 of the iOS SDK', 'what version is the iOS SDK?'],
  ['me:carrier', 'My mobile carrier is Vodafone', 'I ported my number from Vodafone to Three', 'who is my mobile carrier?'],
  [
    'platform:headcount',
    'The platform team has 6 engineers',
    'The platform team grew to 9 engineers',
    'how many engineers are on the platform team?',
  ],
  ['me:guitar', 'I play a Fender Stratocaster', 'I traded the Stratocaster for a Gibson Les Paul', 'what guitar do I play?'],
  ['support:hours', 'Support is open from 9 to 5', 'Support hours are now 8 to 8', 'when is support open?'],
  ['me:bedrooms', 'Our apartment has two bedrooms', 'We moved into a house with three bedrooms', 'how many bedrooms do we have?'],
  [
    'acme:renewal',
    'The Acme contract renews on 1 October',
    "Acme's contract renewal date is now 1 December",
    'when does the Acme contract renew?',
  ],
  ['me:browser', 'I browse with Chrome', "I'm using Firefox now, Chrome is gone", 'which browser do I use?'],
  [
    'cluster:k8s',
    'The cluster runs Kubernetes 1.27',
    'The cluster was upgraded to Kubernetes 1.30',
    'what Kubernetes version is the cluster on?',
  ],
  ['me:manager', 'My manager is Elena', 'I have a new manager, Rafael', 'who is my manager?'],
];

/**
 * Look-alikes: [the first memory, a second one written later that does NOT replace it, a
 * question the first answers]. Same relation of another subject, another relation of the same
 * subject, the same number in another fact, additions, and dated events of one kind.
 */
const LOOK_ALIKES = [
  ['Alice lives in Paris', 'Bob lives in Berlin', 'where does Alice live?'],
  ['The auth service listens on port 8080', 'The billing service listens on port 9090', 'which port does the auth service use?'],
  ['Project Atlas is due on 14 March', 'Project Beacon is due on 2 April', 'when is Atlas due?'],
  ['I speak French', 'I also speak German', 'which languages do I speak?'],
  ["Priya's manager is Tom", "Tom's manager is Sandra", "who is Priya's manager?"],
  ['My rent is $1,450 a month', 'The gym membership is $45 a month', 'how much is my rent?'],
  ["Marco's phone number is +39 347 555 0192", "Giulia's phone number is +39 320 555 7781", "what is Marco's number?"],
  ['I drive a Honda Civic', 'My wife drives a Tesla', 'what car do I drive?'],
  ['The API runs on Node 18', 'The worker runs on Node 20', 'what Node version does the API use?'],
  ['Kenji owns the billing service', 'Amara owns the search service', 'who owns billing?'],
  ['I have a dentist appointment on 3 May', 'I have a haircut on 5 May', 'when is my dentist appointment?'],
  ['The staging database is PostgreSQL 14', 'The analytics database is ClickHouse 23', 'what database does staging use?'],
  ['I use VS Code at work', 'I use Vim on servers', 'which editor do I use at work?'],
  ['Lena lives in Munich', "Lena's sister lives in Vienna", 'where does Lena live?'],
  ['Standup is at 9:30', 'Retro is at 16:00 on Fridays', 'what time is standup?'],
  ['The blog is hosted on Netlify', 'The docs site is hosted on Vercel', 'where is the blog hosted?'],
  ['I work at Shopify', 'My brother works at Stripe', 'where do I work?'],
  ['Sprint 14 ends on Friday', 'Sprint 15 starts on Monday', 'when does sprint 14 end?'],
  ['We have a cat named Luna', 'We also adopted a dog named Pepper', 'what is our cat called?'],
  ['The iOS app is at version 4.2', 'The Android app is at version 3.9', 'what version is the iOS app?'],
  ['Jules is the on-call lead', 'Mei is the release lead', 'who is the on-call lead?'],
  ['The EU servers run in eu-west-1', 'The US servers run in us-east-1', 'which region do the EU servers run in?'],
  ['I bank with Barclays', 'I have a credit card with Amex', 'which bank do I use?'],
  ['Our office is at 12 Baker Street', 'Our warehouse is at 48 Canal Road', 'where is the office?'],
  ["Ravi's email is ravi@acme.io", "Sunita's email is sunita@acme.io", "what is Ravi's email?"],
  ['The Q3 marketing budget is 40,000 euros', 'The Q3 hiring budget is 120,000 euros', 'how big is the Q3 marketing budget?'],
  ["I'm learning Spanish", 'My son is learning Japanese', 'which language am I learning?'],
  ['The dashboard is built with React 18', 'The landing page is built with Astro 4', 'what is the dashboard built with?'],
  ['The mobile app launches on June 3', 'The partner portal launches on June 24', 'when does the mobile app launch?'],
  ['Tomás is on the payments team', 'Ines is on the search team', 'which team is Tomás on?'],
  ['I weigh 82 kg', 'My suitcase weighs 23 kg', 'how much do I weigh?'],
  ["I'm on Pacific time", 'Our client is on Central European Time', 'what timezone am I in?'],
  ['Project Phoenix is led by Ingrid', 'Project Hydra is led by Olu', 'who leads Phoenix?'],
  ['My favourite band is Radiohead', 'My favourite album is In Rainbows', "what's my favourite band?"],
  ['Payroll runs on the 25th', 'Invoices are sent on the 1st', 'when does payroll run?'],
  ['The data pipeline uses Python 3.12', 'The ML notebooks use Python 3.10', 'which Python does the data pipeline use?'],
  ['Nora sits at desk 4B', 'Omar sits at desk 7A', 'where does Nora sit?'],
  ['My daughter goes to Hillside Primary', 'My son goes to Riverside Academy', 'which school does my daughter attend?'],
  ['Static assets are served from Fastly', 'Video is served from Mux', 'which CDN serves static assets?'],
  ['The board meeting is on 12 September', 'The budget review is on 19 September', 'when is the board meeting?'],
  ['Chen works from the London office', 'Dario works from the Lisbon office', 'where does Chen work from?'],
  ['I use 1Password for work', 'I use Bitwarden for personal accounts', 'which password manager do I use for work?'],
  ['The platform team has 6 engineers', 'The data team has 9 engineers', 'how big is the platform team?'],
  ['I play a Fender Stratocaster', 'I also own a Yamaha acoustic guitar', 'what electric guitar do I play?'],
  ['Support is open 9 to 5 on weekdays', 'Support is open 10 to 2 on Saturdays', 'when is support open on weekdays?'],
  ['The Acme contract renews on 1 October', 'The Globex contract renews on 1 December', 'when does the Acme contract renew?'],
  ['The cluster runs Kubernetes 1.30', 'The cluster has 12 nodes', 'what Kubernetes version does the cluster run?'],
  ['My manager is Elena', 'My mentor is Rafael', 'who is my manager?'],
  [
    'The meeting room on floor 3 is called Everest',
    'The meeting room on floor 4 is called Kilimanjaro',
    'what is the room on floor 3 called?',
  ],
  ['The auth service was written by Dana', 'The auth service was reviewed by Eli', 'who wrote the auth service?'],
  ['The billing API listens on port 8443', 'Ticket 8443 is about a billing API timeout', 'which port does the billing API listen on?'],
  ['Our flat is on the 4th floor', 'I came 4th in the running club race', 'which floor is our flat on?'],
  ['I drink coffee in the morning', 'I drink tea in the afternoon', 'what do I drink in the morning?'],
  ['The Berlin office has 40 desks', 'The Madrid office has 25 desks', 'how many desks does the Berlin office have?'],
  ['I visited Tokyo in 2019', 'I visited Seoul in 2023', 'when did I visit Tokyo?'],
  ['Ada wrote the parser in Rust', 'Ada wrote the CLI in Go', 'what language is the parser written in?'],
  ['Release 2.3 shipped on 4 February', 'Release 2.4 shipped on 18 March', 'when did release 2.3 ship?'],
  ['Our Slack channel for incidents is #incidents', 'Our Slack channel for releases is #releases', 'where do we discuss incidents?'],
  ["Grandma's phone number is 555-0142", "The plumber's phone number is 555-0199", "what is grandma's number?"],
  ['I ran 10 km on Saturday', 'I ran 12 km on Sunday', 'how far did I run on Saturday?'],
  ['The invoice for March was 1,200 euros', 'The invoice for April was 1,350 euros', 'how much was the March invoice?'],
  ['The London team meets on Tuesdays', 'The Paris team meets on Thursdays', 'when does the London team meet?'],
  ["Hugo's favourite food is ramen", "Hugo's favourite drink is matcha", "what is Hugo's favourite food?"],
  ['The password policy requires 12 characters', 'API keys are rotated every 90 days', 'how long must passwords be?'],
];

/** Distractors per change scenario: the first facts of other scenarios, none about its own topic. */
const DISTRACTORS_PER_SCENARIO = 12;
/** Unrelated memories stored around each look-alike pair. */
const LOOK_ALIKE_DISTRACTORS = 4;

/**
 * The suite: `changes` ({tenant, old, replacement, question, distractors}) and `lookAlikes`
 * ({tenant, first, second, question, distractors}). Distractors are other scenarios' first facts,
 * picked with a stride so each tenant holds a different mix of people, projects and first-person
 * facts.
 */
export function buildFactChangeSuite() {
  const firstFacts = CHANGES.map(([topic, old]) => ({ topic, content: old }));
  const pick = (index, count, excludedTopic) => {
    const picked = [];
    for (let step = 1; picked.length < count && step < firstFacts.length; step++) {
      const candidate = firstFacts[(index + step * 7) % firstFacts.length];
      if (candidate.topic !== excludedTopic && !picked.includes(candidate.content)) picked.push(candidate.content);
    }
    return picked;
  };
  const changes = CHANGES.map(([topic, old, replacement, question], i) => ({
    tenant: `fact-change-${String(i + 1).padStart(2, '0')}`,
    topic,
    old,
    replacement,
    question,
    distractors: pick(i, DISTRACTORS_PER_SCENARIO, topic),
  }));
  const lookAlikes = LOOK_ALIKES.map(([first, second, question], i) => ({
    tenant: `fact-look-alike-${String(i + 1).padStart(2, '0')}`,
    first,
    second,
    question,
    distractors: pick(i * 3, LOOK_ALIKE_DISTRACTORS, undefined),
  }));
  return { changes, lookAlikes };
}
