// Words the duplicate events' pages (events.js, event.js) share: an event's status, its
// default title, and every refusal of the events API worded by its error code (the
// English "message" of an error answer is for programs; docs/events.md lists the codes).
import { t } from "./i18n.js";

/** An event's status ("open", "playing", "over", "cancelled") as the page's language says it. */
export function statusWords(status) {
  return { open: t("Open for entries"), playing: t("Being played"), over: t("Over"), cancelled: t("Cancelled") }[status]
    || status;
}

/** An event's title: the server names an untitled event "Duplicate event", which is worded here. */
export const eventTitle = (title) => (title === "Duplicate event" ? t("Duplicate event") : title);

/** Why the server refused a request about events, from its answer's ``error`` code. */
export function eventRefusal(code, status) {
  const words = {
    no_event: t("There is no such event."),
    not_open: t("The event has started or was cancelled: its seats are fixed."),
    bad_seat: t("There is no such seat in this event."),
    seat_taken: t("That seat is taken; choose another."),
    already_entered: t("Your account already holds a seat in this event."),
    no_seat: t("You hold no seat in this event."),
    not_organiser: t("Only the event's organiser can do that."),
    not_running: t("The event is over or was cancelled already."),
    too_many_events: t("You have too many events waiting to start; start or cancel one first."),
    bad_config: t("These event settings are not valid."),
    bad_name: t("Choose a name of 1 to 24 letters."),
    signed_out: t("Sign in first: an event is organised by an account."),
    csrf: t("This page's security token is missing or old: reload the page and try again."),
    bad_origin: t("This request came from a page of another site, so it was refused."),
    slow_down: t("Too many requests: wait a moment and try again."),
    storage: t("The server could not read or save this; nothing was changed. Try again."),
    full: t("The server is full: try again later."),
    bad_json: t("The server did not understand this request; reload the page and try again."),
    bad_request: t("The server did not understand this request; reload the page and try again."),
  };
  return words[code] || (status ? t("The server answered {status}.", { status }) : t("No connection to the server."));
}

/** An error for a failed answer: its message is the refusal in words, ``code`` the server's code. */
export async function answerError(res) {
  const data = await res.json().catch(() => ({}));
  const err = new Error(eventRefusal(data.error, res.status));
  err.code = data.error;
  err.detail = data.message;
  return err;
}
