// @ts-check
// The retrieval fixture of `pnpm eval`: memories an assistant would keep about the people,
// projects and events of three teams (three tenants), and labelled questions about them.
// Written for memsvc; generated from the tables below so every label is exact. Each question
// has a category, and `relevant` lists the keys of the memories that answer it.

/**
 * @typedef {[name: string, role: string, city: string, editor: string, drink: string, pets: string, language: string]} Person
 * @typedef {[name: string, purpose: string, database: string, region: string, day: string, owner: string, host: string, launched: string]} Project
 * @typedef {{ people: Person[], projects: Project[], events: [date: string, what: string][], decisions: [topic: string, decision: string][] }} World
 * @typedef {{ tenant: string, key: string, content: string, tags: string[] }} FixtureMemory
 * @typedef {{ tenant: string, category: string, query: string, relevant: string[] }} FixtureQuery
 */

/** @type {Record<string, World>} */
const TENANTS = {
  'team-orbit': {
    people: [
      ['Dana', 'backend lead', 'Lisbon', 'Helix', 'green tea', 'a greyhound called Pixel', 'Rust'],
      ['Eli', 'site reliability engineer', 'Toronto', 'Neovim', 'espresso', 'two cats, Miso and Tofu', 'Go'],
      ['Farah', 'product manager', 'Nairobi', 'VS Code', 'chai', 'a parrot named Kiwi', 'Python'],
      ['Gustav', 'data engineer', 'Malmö', 'Emacs', 'filter coffee', 'no pets', 'Scala'],
      ['Hana', 'designer', 'Osaka', 'Figma', 'matcha', 'a shiba inu called Mochi', 'TypeScript'],
      ['Ivo', 'security engineer', 'Zagreb', 'IntelliJ', 'cold brew', 'an aquarium of neon tetras', 'Kotlin'],
    ],
    projects: [
      ['Atlas', 'the billing platform', 'PostgreSQL 15', 'eu-west-1', 'Tuesday', 'Dana', 'GitLab', '2024-09-02'],
      ['Beacon', 'the alerting service', 'ClickHouse', 'us-east-2', 'Wednesday', 'Eli', 'GitHub', '2025-01-20'],
      ['Cobalt', 'the mobile checkout', 'SQLite on device', 'ap-southeast-1', 'Thursday', 'Farah', 'GitHub', '2025-06-11'],
      ['Delta', 'the data warehouse loader', 'BigQuery', 'europe-north1', 'Monday', 'Gustav', 'Bitbucket', '2023-11-30'],
    ],
    events: [
      ['2026-03-14', 'the payments API was down for 42 minutes after a certificate expired'],
      ['2026-02-03', 'the team moved the weekly planning meeting from Monday to Wednesday morning'],
      ['2025-12-09', 'Atlas crossed one million invoices processed in a single month'],
      ['2026-01-27', 'an intern accidentally deleted the staging database and it was restored from a snapshot'],
      ['2025-10-15', 'the company offsite took place in Porto with a boat trip on the Douro'],
    ],
    decisions: [
      ['queueing', 'we chose RabbitMQ over Kafka for job queues because the volumes are small'],
      ['feature flags', 'we stopped building our own feature-flag system and adopted Unleash'],
      ['code review', 'every pull request needs two approvals, one from outside the author’s squad'],
      ['on-call', 'on-call rotates weekly and hands over on Friday at 16:00 Lisbon time'],
      ['logging', 'structured JSON logs only; no printf debugging left in production code'],
    ],
  },
  'team-harbor': {
    people: [
      ['Jonas', 'mobile developer', 'Hamburg', 'Xcode', 'flat white', 'a rescue dog named Brezel', 'Swift'],
      ['Keiko', 'QA lead', 'Sapporo', 'WebStorm', 'hojicha', 'a hamster called Daifuku', 'TypeScript'],
      ['Luca', 'platform engineer', 'Turin', 'Zed', 'ristretto', 'a tortoise named Nonna', 'Go'],
      ['Mira', 'engineering manager', 'Ljubljana', 'Sublime Text', 'rooibos', 'a border collie called Echo', 'Java'],
      ['Nils', 'machine learning engineer', 'Bergen', 'Jupyter', 'mocha', 'no pets', 'Python'],
    ],
    projects: [
      ['Ember', 'the recommendation engine', 'Redis and Postgres', 'eu-central-1', 'Friday', 'Nils', 'GitHub', '2025-03-17'],
      ['Fjord', 'the shipping tracker', 'DynamoDB', 'eu-north-1', 'Tuesday', 'Luca', 'GitLab', '2024-05-06'],
      ['Garnet', 'the customer support inbox', 'MongoDB', 'us-west-2', 'Thursday', 'Keiko', 'GitHub', '2025-08-25'],
    ],
    events: [
      ['2026-04-02', 'Fjord shipped real-time vessel positions to every customer'],
      ['2026-01-12', 'the Hamburg office flooded and everyone worked from home for a week'],
      ['2025-11-21', 'Garnet’s search returned other customers’ tickets for ten minutes; the bug was a missing tenant filter'],
      ['2026-02-18', 'Mira ran the first blameless postmortem workshop for the whole department'],
    ],
    decisions: [
      ['mobile releases', 'mobile releases ship every second Thursday through a staged rollout'],
      ['infrastructure as code', 'all infrastructure is written in OpenTofu; console changes are reverted'],
      ['testing', 'end-to-end tests run against a real database, never mocks'],
      ['documentation', 'architecture decisions are recorded as ADRs in the docs folder of each repo'],
    ],
  },
  'team-summit': {
    people: [
      ['Sven', 'infrastructure lead', 'Oslo', 'Kakoune', 'black coffee', 'a husky called Blizzard', 'Rust'],
      ['Tariq', 'backend developer', 'Amman', 'GoLand', 'cardamom coffee', 'a falcon-shaped kite collection', 'Go'],
      ['Ula', 'accessibility specialist', 'Vilnius', 'VS Code', 'sea buckthorn tea', 'a dachshund named Kugelis', 'TypeScript'],
      ['Viktor', 'release manager', 'Brno', 'Vim', 'kofola', 'a canary called Žluťák', 'Bash'],
      ['Wen', 'search engineer', 'Chengdu', 'CLion', 'jasmine tea', 'a pair of budgies', 'C++'],
    ],
    projects: [
      ['Jade', 'the full-text search cluster', 'OpenSearch', 'ap-northeast-1', 'Tuesday', 'Wen', 'GitHub', '2025-02-14'],
      ['Kestrel', 'the release pipeline', 'SQLite files in S3', 'eu-north-1', 'Monday', 'Viktor', 'GitLab', '2024-10-28'],
    ],
    events: [
      ['2026-04-09', 'Jade reindexed forty million documents without a single failed query'],
      ['2025-12-18', 'the winter party was held in a sauna village outside Oslo'],
    ],
    decisions: [
      ['accessibility', 'every new screen must pass an automated WCAG 2.2 AA audit before release'],
      ['versioning', 'services follow semantic versioning and deprecations last two minor releases'],
    ],
  },
  'team-meadow': {
    people: [
      ['Oskar', 'frontend developer', 'Kraków', 'VS Code', 'americano', 'a cat named Pierogi', 'TypeScript'],
      ['Priya', 'staff engineer', 'Bangalore', 'Vim', 'masala chai', 'a beagle called Biscuit', 'C++'],
      ['Quentin', 'database administrator', 'Lyon', 'DataGrip', 'café au lait', 'a rabbit named Praline', 'SQL'],
      ['Rosa', 'developer advocate', 'Valencia', 'Cursor', 'horchata', 'two goldfish', 'JavaScript'],
    ],
    projects: [
      ['Harvest', 'the farm sensor dashboard', 'TimescaleDB', 'eu-west-3', 'Wednesday', 'Oskar', 'GitHub', '2025-04-01'],
      ['Irrigo', 'the irrigation scheduler', 'PostgreSQL 16', 'ap-south-1', 'Monday', 'Priya', 'Gitea', '2024-12-12'],
    ],
    events: [
      ['2026-03-30', 'Harvest onboarded its hundredth farm in Andalusia'],
      ['2025-09-05', 'a hailstorm knocked out forty soil sensors and Irrigo paused watering automatically'],
      ['2026-02-10', 'Quentin migrated the main cluster to PostgreSQL 16 with eleven seconds of downtime'],
    ],
    decisions: [
      ['time zones', 'all timestamps are stored in UTC and shown in the farm’s local time zone'],
      ['sensor data retention', 'raw sensor readings are kept for 90 days, hourly aggregates forever'],
      ['open source', 'the sensor firmware is published under the Apache 2.0 licence'],
    ],
  },
};

const HOBBIES = [
  'bouldering',
  'sourdough baking',
  'trail running',
  'chess',
  'birdwatching',
  'pottery',
  'sailing',
  'jazz piano',
  'urban sketching',
  'beekeeping',
];
const MONITORING = ['Grafana and Prometheus', 'Datadog', 'Honeycomb', 'New Relic', 'Sentry and Loki'];
const CI = ['GitHub Actions', 'GitLab CI', 'Buildkite', 'Jenkins', 'CircleCI'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const spoken = (/** @type {string} */ iso) => {
  const [year, month, day] = /** @type {[number, number, number]} */ (iso.split('-').map(Number));
  return `${day} ${MONTHS[month - 1]} ${year}`;
};

/** { memories: [{key, tenant, content, tags}], queries: [{tenant, query, category, relevant: [key]}] } */
export function buildFixture() {
  /** @type {FixtureMemory[]} */
  const memories = [];
  /** @type {FixtureQuery[]} */
  const queries = [];
  /** @type {(tenant: string, key: string, content: string, tags: string[]) => number} */
  const add = (tenant, key, content, tags) => memories.push({ tenant, key: `${tenant}/${key}`, content, tags });
  /** @type {(tenant: string, category: string, query: string, ...relevant: string[]) => number} */
  const ask = (tenant, category, query, ...relevant) =>
    queries.push({ tenant, category, query, relevant: relevant.map((key) => `${tenant}/${key}`) });

  for (const [tenant, world] of Object.entries(TENANTS)) {
    for (const [name, role, city, editor, drink, pets, language] of world.people) {
      const p = name.toLowerCase();
      add(tenant, `${p}-role`, `${name}'s role on the team is ${role}; joined two years ago`, ['people']);
      add(tenant, `${p}-city`, `${name} lives in ${city} and works from a coworking space there`, ['people']);
      add(tenant, `${p}-editor`, `${name}'s editor of choice is ${editor}, with a heavily customised config`, ['people', 'tools']);
      add(tenant, `${p}-drink`, `${name} always orders ${drink} in the morning stand-up`, ['people']);
      add(tenant, `${p}-pets`, `At home ${name} has ${pets}`, ['people', 'personal']);
      add(tenant, `${p}-language`, `${name}'s favourite programming language is ${language}`, ['people', 'tools']);
      // A near-duplicate of the city memory with another detail: a distractor for city questions.
      add(tenant, `${p}-travel`, `${name} travels to the headquarters every quarter for planning week`, ['people', 'travel']);
      const n = memories.length;
      add(tenant, `${p}-hobby`, `Outside work ${name} is into ${HOBBIES[n % HOBBIES.length]}`, ['people', 'personal']);
      add(tenant, `${p}-birthday`, `${name}'s birthday is in ${MONTHS[n % 12]}; the team usually brings cake`, ['people', 'personal']);
      ask(tenant, 'paraphrase', `What does ${name} do for fun outside work?`, `${p}-hobby`);
      ask(tenant, 'keyword', `where ${name} lives`, `${p}-city`);
      ask(tenant, 'paraphrase', `Where does ${name} live these days?`, `${p}-city`);
      ask(tenant, 'paraphrase', `Which editor does ${name} use?`, `${p}-editor`);
      ask(tenant, 'entity', city, `${p}-city`);
      ask(tenant, 'multi-fact', `${name}'s role and favourite language`, `${p}-role`, `${p}-language`);
    }
    for (const [name, purpose, database, region, day, owner, host, launched] of world.projects) {
      const k = name.toLowerCase();
      add(tenant, `${k}-what`, `${name} is ${purpose}, owned by ${owner}`, ['projects']);
      add(tenant, `${k}-database`, `${name} stores its data in a ${database} database`, ['projects', 'infra']);
      add(tenant, `${k}-region`, `${name} deploys to the ${region} region`, ['projects', 'infra', 'deploy']);
      add(tenant, `${k}-day`, `Production releases of ${name} happen on ${day} afternoons, never on Fridays`, ['projects', 'deploy']);
      add(tenant, `${k}-repo`, `The ${name} repository is hosted on ${host}`, ['projects']);
      add(tenant, `${k}-launch`, `${name} launched on ${spoken(launched)}`, ['projects', 'history']);
      add(tenant, `${k}-status`, `${name} status: ${owner} reports the backlog is under control this sprint`, ['projects', 'status']);
      const n = memories.length;
      add(tenant, `${k}-monitoring`, `${name} is monitored with ${MONITORING[n % MONITORING.length]}`, ['projects', 'infra']);
      add(tenant, `${k}-ci`, `${name}'s continuous integration runs on ${CI[n % CI.length]}`, ['projects', 'infra']);
      add(tenant, `${k}-oncall`, `Pages for ${name} go to ${owner} first, then to the platform rotation`, ['projects', 'on-call']);
      ask(tenant, 'keyword', `${name} monitoring`, `${k}-monitoring`);
      ask(tenant, 'paraphrase', `Who gets paged when ${name} breaks?`, `${k}-oncall`);
      ask(tenant, 'keyword', `${name} deploy region`, `${k}-region`);
      ask(tenant, 'keyword', `${name} database`, `${k}-database`);
      ask(tenant, 'paraphrase', `On which weekday do we ship ${name} to production?`, `${k}-day`);
      ask(tenant, 'entity', region, `${k}-region`);
      ask(tenant, 'temporal', `When did ${name} launch?`, `${k}-launch`);
      ask(tenant, 'multi-fact', `${name} database and deploy region`, `${k}-database`, `${k}-region`);
      ask(tenant, 'near-duplicate', `Who owns ${name}?`, `${k}-what`);
    }
    world.events.forEach(([date, what], index) => {
      add(tenant, `event-${index}`, `On ${spoken(date)} ${what}`, ['events']);
      const [, month, day] = /** @type {[number, number, number]} */ (date.split('-').map(Number));
      ask(tenant, 'temporal', `What happened on ${day} ${MONTHS[month - 1]}?`, `event-${index}`);
    });
    world.decisions.forEach(([topic, decision], index) => {
      add(tenant, `decision-${index}`, `Decision on ${topic}: ${decision}`, ['decisions']);
      ask(tenant, 'keyword', `decision ${topic}`, `decision-${index}`);
    });
  }

  // Negation: memories that say what is NOT the case, next to ones that say it is.
  add('team-orbit', 'no-kafka', 'We do not use Kafka anywhere; it was rejected as too heavy for our volumes', ['decisions']);
  add('team-orbit', 'dana-no-coffee', 'Dana never drinks coffee, not even decaf', ['people']);
  add('team-harbor', 'no-mocks', 'Nobody on the team writes database mocks any more', ['decisions']);
  ask('team-orbit', 'negation', 'Do we use Kafka?', 'no-kafka', 'decision-0');
  ask('team-orbit', 'negation', 'Who never drinks coffee?', 'dana-no-coffee');
  ask('team-harbor', 'negation', 'Are database mocks allowed in tests?', 'no-mocks', 'decision-2');
  return { memories, queries };
}
