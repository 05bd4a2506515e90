//! The one place that talks to Ombi: HTTP client, session (JWT / API key),
//! bounded body reading, response interpretation and retry policy.
