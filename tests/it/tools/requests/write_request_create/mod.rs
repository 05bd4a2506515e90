//! `write_request_create` against the fake Ombi, one file per media as its source is (`movie`, `tv`,
//! `album`, `collection`), and `rules` for what holds whatever the media: Ombi's permission rules and
//! quotas, on-behalf and alias requests, conflicts, a send Ombi only queued. For every case the exact
//! request Ombi received and the mutation read back.

mod album;
mod collection;
mod movie;
mod rules;
mod tv;
