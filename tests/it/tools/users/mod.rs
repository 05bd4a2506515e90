//! The user tools (`src/tools/users/`): reading users and managing them, their preferences, and
//! sending them notifications.

mod read_users;
mod write_notification_send;
mod write_user_manage;
mod write_user_preferences;
