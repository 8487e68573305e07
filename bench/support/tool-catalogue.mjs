// A labelled tool catalogue for bench/tool-search.bench.mjs, written as data:
// the tools of the MCP reference servers (filesystem, git, github, slack,
// postgres, fetch, memory, time, brave-search, puppeteer, sqlite, google-maps)
// with their real names, descriptions and parameter names, plus synthetic
// SaaS services built from realistic verbs, nouns and parameters.

/** [name, description, ...parameter names] of the reference MCP servers' tools. */
export const REFERENCE_TOOLS = [
  // filesystem
  [
    "read_file",
    "Read the complete contents of a file from the file system. Handles various text encodings and provides detailed error messages if the file cannot be read.",
    "path",
    "head",
    "tail",
  ],
  [
    "read_multiple_files",
    "Read the contents of multiple files simultaneously. More efficient than reading files one by one when you need to analyze or compare multiple files.",
    "paths",
  ],
  [
    "write_file",
    "Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning.",
    "path",
    "content",
  ],
  [
    "edit_file",
    "Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made.",
    "path",
    "edits",
    "dryRun",
  ],
  [
    "create_directory",
    "Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation.",
    "path",
  ],
  [
    "list_directory",
    "Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes.",
    "path",
  ],
  [
    "list_directory_with_sizes",
    "Get a detailed listing of all files and directories in a specified path, including sizes.",
    "path",
    "sortBy",
  ],
  ["directory_tree", "Get a recursive tree view of files and directories as a JSON structure.", "path"],
  [
    "move_file",
    "Move or rename files and directories. Can move files between directories and rename them in a single operation.",
    "source",
    "destination",
  ],
  [
    "search_files",
    "Recursively search for files and directories matching a pattern. Searches through all subdirectories from the starting path.",
    "path",
    "pattern",
    "excludePatterns",
  ],
  [
    "get_file_info",
    "Retrieve detailed metadata about a file or directory: size, creation time, last modified time, permissions and type.",
    "path",
  ],
  ["list_allowed_directories", "Returns the list of directories that this server is allowed to access."],
  ["read_media_file", "Read an image or audio file. Returns the base64 encoded data and MIME type.", "path"],
  // git
  ["git_status", "Shows the working tree status", "repo_path"],
  [
    "git_diff_unstaged",
    "Shows changes in the working directory that are not yet staged",
    "repo_path",
    "context_lines",
  ],
  ["git_diff_staged", "Shows changes that are staged for commit", "repo_path", "context_lines"],
  ["git_diff", "Shows differences between branches or commits", "repo_path", "target", "context_lines"],
  ["git_commit", "Records changes to the repository", "repo_path", "message"],
  ["git_add", "Adds file contents to the staging area", "repo_path", "files"],
  ["git_reset", "Unstages all staged changes", "repo_path"],
  ["git_log", "Shows the commit logs", "repo_path", "max_count", "start_timestamp", "end_timestamp"],
  [
    "git_create_branch",
    "Creates a new branch from an optional base branch",
    "repo_path",
    "branch_name",
    "base_branch",
  ],
  ["git_checkout", "Switches branches", "repo_path", "branch_name"],
  ["git_show", "Shows the contents of a commit", "repo_path", "revision"],
  ["git_branch", "List Git branches", "repo_path", "branch_type", "contains", "not_contains"],
  // github
  [
    "create_or_update_file",
    "Create or update a single file in a GitHub repository",
    "owner",
    "repo",
    "path",
    "content",
    "message",
    "branch",
    "sha",
  ],
  ["search_repositories", "Search for GitHub repositories", "query", "page", "perPage"],
  [
    "create_repository",
    "Create a new GitHub repository in your account",
    "name",
    "description",
    "private",
    "autoInit",
  ],
  [
    "get_file_contents",
    "Get the contents of a file or directory from a GitHub repository",
    "owner",
    "repo",
    "path",
    "branch",
  ],
  [
    "push_files",
    "Push multiple files to a GitHub repository in a single commit",
    "owner",
    "repo",
    "branch",
    "files",
    "message",
  ],
  [
    "create_issue",
    "Create a new issue in a GitHub repository",
    "owner",
    "repo",
    "title",
    "body",
    "assignees",
    "labels",
    "milestone",
  ],
  [
    "create_pull_request",
    "Create a new pull request in a GitHub repository",
    "owner",
    "repo",
    "title",
    "body",
    "head",
    "base",
    "draft",
  ],
  [
    "fork_repository",
    "Fork a GitHub repository to your account or specified organization",
    "owner",
    "repo",
    "organization",
  ],
  ["create_branch", "Create a new branch in a GitHub repository", "owner", "repo", "branch", "from_branch"],
  [
    "list_commits",
    "Get list of commits of a branch in a GitHub repository",
    "owner",
    "repo",
    "sha",
    "page",
    "perPage",
  ],
  [
    "list_issues",
    "List issues in a GitHub repository with filtering options",
    "owner",
    "repo",
    "state",
    "labels",
    "sort",
    "direction",
    "since",
  ],
  [
    "update_issue",
    "Update an existing issue in a GitHub repository",
    "owner",
    "repo",
    "issue_number",
    "title",
    "body",
    "state",
    "labels",
    "assignees",
  ],
  ["add_issue_comment", "Add a comment to an existing issue", "owner", "repo", "issue_number", "body"],
  ["search_code", "Search for code across GitHub repositories", "q", "sort", "order", "per_page"],
  ["search_issues", "Search for issues and pull requests across GitHub repositories", "q", "sort", "order"],
  ["search_users", "Search for users on GitHub", "q", "sort", "order"],
  ["get_issue", "Get details of a specific issue in a GitHub repository.", "owner", "repo", "issue_number"],
  ["get_pull_request", "Get details of a specific pull request", "owner", "repo", "pull_number"],
  [
    "list_pull_requests",
    "List and filter repository pull requests",
    "owner",
    "repo",
    "state",
    "head",
    "base",
    "sort",
  ],
  [
    "create_pull_request_review",
    "Create a review on a pull request",
    "owner",
    "repo",
    "pull_number",
    "body",
    "event",
    "comments",
  ],
  [
    "merge_pull_request",
    "Merge a pull request",
    "owner",
    "repo",
    "pull_number",
    "commit_title",
    "merge_method",
  ],
  [
    "get_pull_request_files",
    "Get the list of files changed in a pull request",
    "owner",
    "repo",
    "pull_number",
  ],
  [
    "get_pull_request_status",
    "Get the combined status of all status checks for a pull request",
    "owner",
    "repo",
    "pull_number",
  ],
  [
    "update_pull_request_branch",
    "Update a pull request branch with the latest changes from the base branch",
    "owner",
    "repo",
    "pull_number",
    "expected_head_sha",
  ],
  ["get_pull_request_comments", "Get the review comments on a pull request", "owner", "repo", "pull_number"],
  ["get_pull_request_reviews", "Get the reviews on a pull request", "owner", "repo", "pull_number"],
  // slack
  ["slack_list_channels", "List public channels in the workspace with pagination", "limit", "cursor"],
  ["slack_post_message", "Post a new message to a Slack channel", "channel_id", "text"],
  ["slack_reply_to_thread", "Reply to a specific message thread in Slack", "channel_id", "thread_ts", "text"],
  ["slack_add_reaction", "Add a reaction emoji to a message", "channel_id", "timestamp", "reaction"],
  ["slack_get_channel_history", "Get recent messages from a channel", "channel_id", "limit"],
  ["slack_get_thread_replies", "Get all replies in a message thread", "channel_id", "thread_ts"],
  [
    "slack_get_users",
    "Get a list of all users in the workspace with their basic profile information",
    "cursor",
    "limit",
  ],
  ["slack_get_user_profile", "Get detailed profile information for a specific user", "user_id"],
  // postgres, fetch
  ["query", "Run a read-only SQL query", "sql"],
  [
    "fetch",
    "Fetches a URL from the internet and optionally extracts its contents as markdown.",
    "url",
    "max_length",
    "start_index",
    "raw",
  ],
  // memory
  ["create_entities", "Create multiple new entities in the knowledge graph", "entities"],
  [
    "create_relations",
    "Create multiple new relations between entities in the knowledge graph. Relations should be in active voice",
    "relations",
  ],
  ["add_observations", "Add new observations to existing entities in the knowledge graph", "observations"],
  [
    "delete_entities",
    "Delete multiple entities and their associated relations from the knowledge graph",
    "entityNames",
  ],
  ["delete_observations", "Delete specific observations from entities in the knowledge graph", "deletions"],
  ["delete_relations", "Delete multiple relations from the knowledge graph", "relations"],
  ["read_graph", "Read the entire knowledge graph"],
  ["search_nodes", "Search for nodes in the knowledge graph based on a query", "query"],
  ["open_nodes", "Open specific nodes in the knowledge graph by their names", "names"],
  // time
  ["get_current_time", "Get current time in a specific timezone", "timezone"],
  ["convert_time", "Convert time between timezones", "source_timezone", "time", "target_timezone"],
  // brave-search
  [
    "brave_web_search",
    "Performs a web search using the Brave Search API, ideal for general queries, news, articles, and online content.",
    "query",
    "count",
    "offset",
  ],
  [
    "brave_local_search",
    "Searches for local businesses and places using Brave's Local Search API, such as restaurants and services near a location.",
    "query",
    "count",
  ],
  // puppeteer
  ["puppeteer_navigate", "Navigate to a URL", "url", "launchOptions"],
  [
    "puppeteer_screenshot",
    "Take a screenshot of the current page or a specific element",
    "name",
    "selector",
    "width",
    "height",
  ],
  ["puppeteer_click", "Click an element on the page", "selector"],
  ["puppeteer_fill", "Fill out an input field", "selector", "value"],
  ["puppeteer_select", "Select an element on the page with Select tag", "selector", "value"],
  ["puppeteer_hover", "Hover an element on the page", "selector"],
  ["puppeteer_evaluate", "Execute JavaScript in the browser console", "script"],
  // sqlite
  ["read_query", "Execute a SELECT query on the SQLite database", "query"],
  ["write_query", "Execute an INSERT, UPDATE, or DELETE query on the SQLite database", "query"],
  ["create_table", "Create a new table in the SQLite database", "query"],
  ["list_tables", "List all tables in the SQLite database"],
  ["describe_table", "Get the schema information for a specific table", "table_name"],
  ["append_insight", "Add a business insight to the memo", "insight"],
  // google-maps
  ["maps_geocode", "Convert an address into geographic coordinates", "address"],
  ["maps_reverse_geocode", "Convert coordinates into an address", "latitude", "longitude"],
  ["maps_search_places", "Search for places using Google Places API", "query", "location", "radius"],
  ["maps_place_details", "Get detailed information about a specific place", "place_id"],
  [
    "maps_distance_matrix",
    "Calculate travel distance and time for multiple origins and destinations",
    "origins",
    "destinations",
    "mode",
  ],
  ["maps_elevation", "Get elevation data for locations on the earth", "locations"],
  ["maps_directions", "Get directions between two points", "origin", "destination", "mode"],
];

/** Synthetic services: [id, display name, [noun, plural, ...parameters][]]. */
export const SERVICES = [
  [
    "jira",
    "Jira",
    [
      ["issue", "issues", "project_key", "summary", "assignee"],
      ["sprint", "sprints", "board_id", "goal"],
      ["project", "projects", "key", "lead"],
      ["comment", "comments", "issue_key", "body"],
      ["board", "boards", "project_key"],
    ],
  ],
  [
    "stripe",
    "Stripe",
    [
      ["customer", "customers", "email", "name"],
      ["charge", "charges", "amount", "currency", "customer_id"],
      ["refund", "refunds", "charge_id", "amount"],
      ["subscription", "subscriptions", "customer_id", "price_id"],
      ["invoice", "invoices", "customer_id", "due_date"],
    ],
  ],
  [
    "shopify",
    "Shopify",
    [
      ["product", "products", "title", "price", "sku"],
      ["order", "orders", "order_id", "status"],
      ["customer", "customers", "email"],
      ["collection", "collections", "title"],
      ["discount", "discounts", "code", "percentage"],
    ],
  ],
  [
    "salesforce",
    "Salesforce",
    [
      ["lead", "leads", "company", "email"],
      ["opportunity", "opportunities", "account_id", "stage", "amount"],
      ["account", "accounts", "name", "industry"],
      ["contact", "contacts", "account_id", "email"],
      ["case", "cases", "subject", "priority"],
    ],
  ],
  [
    "zendesk",
    "Zendesk",
    [
      ["ticket", "tickets", "subject", "priority", "requester_email"],
      ["user", "users", "email", "role"],
      ["macro", "macros", "title"],
      ["organization", "organizations", "name"],
      ["article", "articles", "title", "section_id"],
    ],
  ],
  [
    "hubspot",
    "HubSpot",
    [
      ["contact", "contacts", "email", "lifecycle_stage"],
      ["deal", "deals", "pipeline", "amount"],
      ["company", "companies", "domain"],
      ["email_campaign", "email campaigns", "subject", "list_id"],
      ["note", "notes", "object_id", "body"],
    ],
  ],
  [
    "notion",
    "Notion",
    [
      ["page", "pages", "parent_id", "title"],
      ["database", "databases", "parent_id", "title"],
      ["block", "blocks", "page_id", "content"],
      ["comment", "comments", "page_id", "text"],
    ],
  ],
  [
    "trello",
    "Trello",
    [
      ["card", "cards", "list_id", "name", "due"],
      ["board", "boards", "name"],
      ["list", "lists", "board_id", "name"],
      ["checklist", "checklists", "card_id", "name"],
    ],
  ],
  [
    "asana",
    "Asana",
    [
      ["task", "tasks", "project_gid", "name", "assignee"],
      ["project", "projects", "workspace_gid", "name"],
      ["section", "sections", "project_gid", "name"],
      ["tag", "tags", "workspace_gid", "name"],
    ],
  ],
  [
    "gcal",
    "Google Calendar",
    [
      ["event", "events", "calendar_id", "start", "end", "attendees"],
      ["calendar", "calendars", "summary", "time_zone"],
      ["reminder", "reminders", "event_id", "minutes"],
    ],
  ],
  [
    "gmail",
    "Gmail",
    [
      ["message", "messages", "to", "subject", "body"],
      ["draft", "drafts", "to", "subject"],
      ["label", "labels", "name"],
      ["filter", "filters", "criteria", "action"],
    ],
  ],
  [
    "dropbox",
    "Dropbox",
    [
      ["file", "files", "path"],
      ["folder", "folders", "path"],
      ["shared_link", "shared links", "path", "expires"],
    ],
  ],
  [
    "s3",
    "Amazon S3",
    [
      ["bucket", "buckets", "bucket_name", "region"],
      ["object", "objects", "bucket_name", "key"],
      ["lifecycle_rule", "lifecycle rules", "bucket_name", "days"],
    ],
  ],
  [
    "k8s",
    "Kubernetes",
    [
      ["pod", "pods", "namespace", "name"],
      ["deployment", "deployments", "namespace", "replicas", "image"],
      ["service", "services", "namespace", "port"],
      ["config_map", "config maps", "namespace", "data"],
      ["secret", "secrets", "namespace", "data"],
      ["namespace", "namespaces", "name"],
    ],
  ],
  [
    "docker",
    "Docker",
    [
      ["container", "containers", "image", "name", "ports"],
      ["image", "images", "repository", "tag"],
      ["volume", "volumes", "name", "driver"],
      ["network", "networks", "name", "driver"],
    ],
  ],
  [
    "ec2",
    "AWS EC2",
    [
      ["instance", "instances", "instance_type", "ami_id", "region"],
      ["security_group", "security groups", "vpc_id", "rules"],
      ["key_pair", "key pairs", "key_name"],
      ["snapshot", "snapshots", "volume_id"],
    ],
  ],
  [
    "twilio",
    "Twilio",
    [
      ["sms", "SMS messages", "to", "from", "body"],
      ["call", "calls", "to", "from", "url"],
      ["phone_number", "phone numbers", "area_code"],
      ["recording", "recordings", "call_sid"],
    ],
  ],
  [
    "sendgrid",
    "SendGrid",
    [
      ["email", "emails", "to", "subject", "html"],
      ["template", "templates", "name"],
      ["contact_list", "contact lists", "name"],
      ["suppression", "suppressions", "email"],
    ],
  ],
  [
    "mailchimp",
    "Mailchimp",
    [
      ["audience", "audiences", "name"],
      ["campaign", "campaigns", "list_id", "subject_line"],
      ["subscriber", "subscribers", "list_id", "email_address"],
      ["template", "templates", "name", "html"],
    ],
  ],
  [
    "intercom",
    "Intercom",
    [
      ["conversation", "conversations", "contact_id", "body"],
      ["contact", "contacts", "email", "name"],
      ["article", "articles", "title", "body"],
      ["tag", "tags", "name"],
    ],
  ],
  [
    "datadog",
    "Datadog",
    [
      ["monitor", "monitors", "query", "threshold"],
      ["dashboard", "dashboards", "title", "widgets"],
      ["metric", "metrics", "metric_name", "from", "to"],
      ["downtime", "downtimes", "scope", "end"],
      ["incident", "incidents", "title", "severity"],
    ],
  ],
  [
    "pagerduty",
    "PagerDuty",
    [
      ["incident", "incidents", "service_id", "urgency"],
      ["schedule", "schedules", "time_zone"],
      ["escalation_policy", "escalation policies", "name"],
      ["on_call", "on-call shifts", "schedule_id", "since", "until"],
    ],
  ],
  [
    "sentry",
    "Sentry",
    [
      ["issue", "issues", "project_slug", "query"],
      ["event", "events", "issue_id"],
      ["release", "releases", "version", "project_slug"],
      ["alert_rule", "alert rules", "project_slug", "conditions"],
    ],
  ],
  [
    "jenkins",
    "Jenkins",
    [
      ["job", "jobs", "job_name"],
      ["build", "builds", "job_name", "build_number", "parameters"],
      ["node", "nodes", "label"],
      ["credential", "credentials", "credential_id"],
    ],
  ],
  [
    "circleci",
    "CircleCI",
    [
      ["pipeline", "pipelines", "project_slug", "branch"],
      ["workflow", "workflows", "pipeline_id"],
      ["job", "jobs", "job_number"],
      ["env_var", "environment variables", "project_slug", "name", "value"],
    ],
  ],
  [
    "confluence",
    "Confluence",
    [
      ["page", "pages", "space_key", "title", "body"],
      ["space", "spaces", "key", "name"],
      ["attachment", "attachments", "page_id", "file"],
      ["comment", "comments", "page_id", "body"],
    ],
  ],
  [
    "linear",
    "Linear",
    [
      ["issue", "issues", "team_id", "title", "priority"],
      ["project", "projects", "team_id", "name"],
      ["cycle", "cycles", "team_id", "starts_at"],
      ["label", "labels", "team_id", "name"],
    ],
  ],
  [
    "figma",
    "Figma",
    [
      ["file", "files", "file_key"],
      ["comment", "comments", "file_key", "message"],
      ["component", "components", "file_key", "node_id"],
      ["project", "projects", "team_id"],
    ],
  ],
  [
    "spotify",
    "Spotify",
    [
      ["playlist", "playlists", "user_id", "name"],
      ["track", "tracks", "track_id"],
      ["album", "albums", "album_id"],
      ["artist", "artists", "artist_id"],
      ["queue_item", "queue items", "uri", "device_id"],
    ],
  ],
  [
    "airtable",
    "Airtable",
    [
      ["record", "records", "base_id", "table_name", "fields"],
      ["table", "tables", "base_id", "name"],
      ["base", "bases", "workspace_id", "name"],
      ["view", "views", "table_id", "name"],
    ],
  ],
  [
    "quickbooks",
    "QuickBooks",
    [
      ["invoice", "invoices", "customer_ref", "line_items"],
      ["bill", "bills", "vendor_ref", "due_date"],
      ["customer", "customers", "display_name"],
      ["vendor", "vendors", "display_name"],
      ["payment", "payments", "customer_ref", "amount"],
    ],
  ],
  [
    "xero",
    "Xero",
    [
      ["invoice", "invoices", "contact_id", "line_items"],
      ["contact", "contacts", "name", "email"],
      ["bank_transaction", "bank transactions", "account_id", "amount"],
      ["expense_claim", "expense claims", "user_id", "receipts"],
    ],
  ],
  [
    "workday",
    "Workday",
    [
      ["worker", "workers", "worker_id"],
      ["time_off_request", "time off requests", "worker_id", "start_date", "end_date"],
      ["position", "positions", "job_profile", "location"],
      ["payslip", "payslips", "worker_id", "period"],
    ],
  ],
  [
    "greenhouse",
    "Greenhouse",
    [
      ["candidate", "candidates", "first_name", "last_name", "email"],
      ["job", "jobs", "department", "office"],
      ["application", "applications", "candidate_id", "job_id"],
      ["interview", "interviews", "application_id", "start", "interviewers"],
      ["offer", "offers", "application_id", "salary"],
    ],
  ],
  [
    "okta",
    "Okta",
    [
      ["user", "users", "login", "email"],
      ["group", "groups", "name"],
      ["app", "apps", "label", "sign_on_mode"],
      ["policy", "policies", "type", "name"],
    ],
  ],
  [
    "cloudflare",
    "Cloudflare",
    [
      ["dns_record", "DNS records", "zone_id", "type", "name", "content"],
      ["zone", "zones", "name"],
      ["firewall_rule", "firewall rules", "zone_id", "expression", "action"],
      ["worker_script", "worker scripts", "script_name", "content"],
      ["page_rule", "page rules", "zone_id", "targets"],
    ],
  ],
  [
    "vercel",
    "Vercel",
    [
      ["deployment", "deployments", "project_id", "target"],
      ["project", "projects", "name", "framework"],
      ["domain", "domains", "name", "project_id"],
      ["env_variable", "environment variables", "project_id", "key", "value"],
    ],
  ],
  [
    "heroku",
    "Heroku",
    [
      ["app", "apps", "name", "region"],
      ["dyno", "dynos", "app_name", "size"],
      ["addon", "add-ons", "app_name", "plan"],
      ["config_var", "config vars", "app_name", "key", "value"],
    ],
  ],
  [
    "redis",
    "Redis",
    [
      ["key", "keys", "key", "ttl"],
      ["hash_field", "hash fields", "key", "field", "value"],
      ["stream_entry", "stream entries", "stream", "fields"],
    ],
  ],
  [
    "elastic",
    "Elasticsearch",
    [
      ["index", "indices", "index_name", "mappings"],
      ["document", "documents", "index_name", "doc_id", "body"],
      ["alias", "aliases", "alias_name", "index_name"],
      ["snapshot", "snapshots", "repository", "snapshot_name"],
    ],
  ],
  [
    "mongo",
    "MongoDB",
    [
      ["document", "documents", "database", "collection", "filter"],
      ["collection", "collections", "database", "name"],
      ["index", "indexes", "collection", "keys"],
      ["user", "users", "database", "roles"],
    ],
  ],
  [
    "snowflake",
    "Snowflake",
    [
      ["warehouse", "warehouses", "name", "size"],
      ["table", "tables", "database", "schema", "name"],
      ["stage", "stages", "name", "url"],
      ["role", "roles", "name"],
    ],
  ],
  [
    "bigquery",
    "BigQuery",
    [
      ["dataset", "datasets", "project_id", "dataset_id", "location"],
      ["table", "tables", "dataset_id", "table_id", "schema"],
      ["job", "jobs", "project_id", "query"],
      ["routine", "routines", "dataset_id", "routine_id"],
    ],
  ],
  [
    "weather",
    "OpenWeather",
    [
      ["forecast", "forecasts", "city", "days", "units"],
      ["alert", "weather alerts", "lat", "lon"],
      ["air_quality_report", "air quality reports", "lat", "lon"],
    ],
  ],
  [
    "zoom",
    "Zoom",
    [
      ["meeting", "meetings", "topic", "start_time", "duration"],
      ["webinar", "webinars", "topic", "start_time"],
      ["recording", "cloud recordings", "meeting_id"],
      ["participant", "participants", "meeting_id"],
    ],
  ],
  [
    "docusign",
    "DocuSign",
    [
      ["envelope", "envelopes", "template_id", "signers"],
      ["template", "templates", "name", "documents"],
      ["recipient", "recipients", "envelope_id", "email"],
    ],
  ],
  [
    "calendly",
    "Calendly",
    [
      ["event_type", "event types", "name", "duration"],
      ["scheduled_event", "scheduled events", "user_uri", "min_start_time"],
      ["invitee", "invitees", "event_uuid", "email"],
    ],
  ],
  [
    "bamboohr",
    "BambooHR",
    [
      ["employee", "employees", "employee_id", "department"],
      ["time_off", "time off requests", "employee_id", "start", "end"],
      ["report", "reports", "report_id", "format"],
    ],
  ],
  [
    "launchdarkly",
    "LaunchDarkly",
    [
      ["flag", "feature flags", "project_key", "flag_key", "variations"],
      ["segment", "segments", "project_key", "environment_key", "rules"],
      ["environment", "environments", "project_key", "name"],
    ],
  ],
  [
    "segment",
    "Segment",
    [
      ["source", "sources", "workspace_id", "name"],
      ["destination", "destinations", "source_id", "config"],
      ["tracking_plan", "tracking plans", "name", "rules"],
    ],
  ],
  [
    "mixpanel",
    "Mixpanel",
    [
      ["event", "events", "event_name", "properties"],
      ["cohort", "cohorts", "name", "filters"],
      ["funnel", "funnels", "steps", "from_date", "to_date"],
      ["annotation", "annotations", "date", "description"],
    ],
  ],
  [
    "gdrive",
    "Google Drive",
    [
      ["file", "files", "file_id", "mime_type"],
      ["folder", "folders", "parent_id", "name"],
      ["permission", "permissions", "file_id", "email", "role"],
      ["comment", "comments", "file_id", "content"],
    ],
  ],
  [
    "sheets",
    "Google Sheets",
    [
      ["spreadsheet", "spreadsheets", "spreadsheet_id", "title"],
      ["row", "rows", "spreadsheet_id", "range", "values"],
      ["sheet", "sheets", "spreadsheet_id", "title"],
      ["chart", "charts", "spreadsheet_id", "range", "type"],
    ],
  ],
  [
    "youtube",
    "YouTube",
    [
      ["video", "videos", "video_id", "title", "privacy_status"],
      ["playlist", "playlists", "title"],
      ["comment", "comments", "video_id", "text"],
      ["caption", "captions", "video_id", "language"],
    ],
  ],
  [
    "discord",
    "Discord",
    [
      ["message", "messages", "channel_id", "content"],
      ["channel", "channels", "guild_id", "name"],
      ["role", "roles", "guild_id", "name", "permissions"],
      ["member", "members", "guild_id", "user_id"],
    ],
  ],
  [
    "teams",
    "Microsoft Teams",
    [
      ["message", "messages", "team_id", "channel_id", "content"],
      ["channel", "channels", "team_id", "display_name"],
      ["team", "teams", "display_name"],
      ["meeting", "online meetings", "subject", "start", "end"],
    ],
  ],
  [
    "outlook",
    "Outlook",
    [
      ["email", "emails", "to", "subject", "body"],
      ["event", "calendar events", "subject", "start", "end"],
      ["contact", "contacts", "email", "display_name"],
      ["folder", "mail folders", "display_name"],
    ],
  ],
  [
    "box",
    "Box",
    [
      ["file", "files", "file_id", "parent_id"],
      ["folder", "folders", "folder_id", "name"],
      ["collaboration", "collaborations", "item_id", "email", "role"],
    ],
  ],
  [
    "plaid",
    "Plaid",
    [
      ["account", "bank accounts", "access_token"],
      ["transaction", "transactions", "access_token", "start_date", "end_date"],
      ["institution", "institutions", "institution_id", "country_codes"],
    ],
  ],
  [
    "paypal",
    "PayPal",
    [
      ["payment", "payments", "amount", "currency", "payee"],
      ["payout", "payouts", "recipient", "amount"],
      ["dispute", "disputes", "dispute_id", "reason"],
      ["invoice", "invoices", "recipient_email", "items"],
    ],
  ],
  [
    "ups",
    "UPS",
    [
      ["shipment", "shipments", "from_address", "to_address", "weight"],
      ["label", "shipping labels", "shipment_id", "format"],
      ["tracking", "tracking details", "tracking_number"],
      ["rate", "shipping rates", "origin", "destination", "weight"],
    ],
  ],
];

/**
 * The MCP server each reference tool comes from, named as a user's config
 * would name it (`"mcpServers": { "memory": … }`): an MCP tool group gives
 * every tool its server's name (`definition.metadata.mcpServer`).
 */
export const REFERENCE_SERVERS = {
  filesystem: [
    "read_file",
    "read_multiple_files",
    "write_file",
    "edit_file",
    "create_directory",
    "list_directory",
    "list_directory_with_sizes",
    "directory_tree",
    "move_file",
    "search_files",
    "get_file_info",
    "list_allowed_directories",
    "read_media_file",
  ],
  git: [
    "git_status",
    "git_diff_unstaged",
    "git_diff_staged",
    "git_diff",
    "git_commit",
    "git_add",
    "git_reset",
    "git_log",
    "git_create_branch",
    "git_checkout",
    "git_show",
    "git_branch",
  ],
  github: [
    "create_or_update_file",
    "search_repositories",
    "create_repository",
    "get_file_contents",
    "push_files",
    "create_issue",
    "create_pull_request",
    "fork_repository",
    "create_branch",
    "list_commits",
    "list_issues",
    "update_issue",
    "add_issue_comment",
    "search_code",
    "search_issues",
    "search_users",
    "get_issue",
    "get_pull_request",
    "list_pull_requests",
    "create_pull_request_review",
    "merge_pull_request",
    "get_pull_request_files",
    "get_pull_request_status",
    "update_pull_request_branch",
    "get_pull_request_comments",
    "get_pull_request_reviews",
  ],
  slack: [
    "slack_list_channels",
    "slack_post_message",
    "slack_reply_to_thread",
    "slack_add_reaction",
    "slack_get_channel_history",
    "slack_get_thread_replies",
    "slack_get_users",
    "slack_get_user_profile",
  ],
  postgres: ["query"],
  fetch: ["fetch"],
  memory: [
    "create_entities",
    "create_relations",
    "add_observations",
    "delete_entities",
    "delete_observations",
    "delete_relations",
    "read_graph",
    "search_nodes",
    "open_nodes",
  ],
  time: ["get_current_time", "convert_time"],
  "brave-search": ["brave_web_search", "brave_local_search"],
  puppeteer: [
    "puppeteer_navigate",
    "puppeteer_screenshot",
    "puppeteer_click",
    "puppeteer_fill",
    "puppeteer_select",
    "puppeteer_hover",
    "puppeteer_evaluate",
  ],
  sqlite: ["read_query", "write_query", "create_table", "list_tables", "describe_table", "append_insight"],
  "google-maps": [
    "maps_geocode",
    "maps_reverse_geocode",
    "maps_search_places",
    "maps_place_details",
    "maps_distance_matrix",
    "maps_elevation",
    "maps_directions",
  ],
};

const serverByTool = new Map(
  Object.entries(REFERENCE_SERVERS).flatMap(([server, names]) => names.map((name) => [name, server])),
);

/**
 * The MCP server a catalogue tool would come from: a reference tool's server,
 * or a synthetic tool's service (`jira` for `jira_list_issue`, each SaaS
 * service being its own server).
 */
export function serverOf(name) {
  return serverByTool.get(name) ?? SERVICES.find(([id]) => name.startsWith(`${id}_`))?.[0];
}

/** [verb, description template]: `{noun}`, `{nouns}` and `{service}` are filled in. */
export const VERBS = [
  ["list", "List {nouns} in {service}, with optional filters and pagination"],
  ["get", "Get a single {noun} from {service} by its ID, with all its fields"],
  ["create", "Create a new {noun} in {service}"],
  ["update", "Update fields of an existing {noun} in {service}"],
  ["delete", "Permanently delete a {noun} from {service}"],
  ["search", "Search {nouns} in {service} by keyword or filter expression"],
  ["archive", "Archive a {noun} in {service} so it is hidden but can be restored"],
  ["export", "Export {nouns} from {service} as a CSV or JSON file"],
];

/** The synthetic tools: [name, description, ...parameters] for every service, noun and verb. */
export function syntheticTools(services = SERVICES, suffix = "", note = "") {
  const tools = [];
  for (const [id, service, nouns] of services) {
    for (const [noun, plural, ...parameters] of nouns) {
      const label = noun.replaceAll("_", " ");
      for (const [verb, template] of VERBS) {
        const description = template
          .replaceAll("{nouns}", plural)
          .replaceAll("{noun}", label)
          .replaceAll("{service}", service);
        const params =
          verb === "list" || verb === "search" || verb === "export"
            ? ["query", "limit", ...parameters.slice(0, 1)]
            : verb === "create" || verb === "update"
              ? [`${noun}_id`, ...parameters].slice(verb === "create" ? 1 : 0)
              : [`${noun}_id`];
        tools.push([`${id}${suffix}_${verb}_${noun}`, `${description}${note}`, ...params]);
      }
    }
  }
  return tools;
}
