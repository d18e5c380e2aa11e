const FORMATS = {
  email: "Must be an e-mail address",
  uuid: "Must be an id (a UUID)",
  guid: "Must be an id (a UUID)",
  url: "Must be a web address",
  datetime: "Must be a date and time such as 2026-03-01T09:00:00Z",
  date: "Must be a date such as 2026-03-01",
  time: "Must be a time such as 09:00"
};
const KINDS = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object"
};
function characters(n) {
  return n === 1 ? "1 character" : `${String(n)} characters`;
}
function bound(issue, which, limit) {
  switch (issue.origin) {
    case "string":
      return which === "least" && limit === 1 ? "Must not be empty" : `Must be at ${which} ${characters(limit)}`;
    case "number":
    case "int":
    case "bigint":
      return `Must be at ${which} ${String(limit)}`;
    case "array":
    case "set":
      return which === "least" && limit === 1 ? "Must list at least one item" : `Must list at ${which} ${String(limit)} items`;
    default:
      return void 0;
  }
}
function issueMessage(issue) {
  const i = issue;
  switch (issue.code) {
    case "too_small":
      return bound(i, "least", i.minimum);
    case "too_big":
      return bound(i, "most", i.maximum);
    case "invalid_type": {
      if (i.received === "NaN" || typeof i.input === "number" && Number.isNaN(i.input)) return "Must be a number";
      const kind = KINDS[String(i.expected)];
      return kind ? `Must be ${kind}` : void 0;
    }
    case "invalid_format":
      return FORMATS[String(i.format)] ?? (i.format === "regex" ? "Is not in the expected form" : void 0);
    case "invalid_value": {
      const values = i.values ?? [];
      return values.length > 0 && values.length <= 12 ? `Must be one of: ${values.map(String).join(", ")}` : void 0;
    }
    case "unrecognized_keys":
      return `Unknown field${i.keys.length > 1 ? "s" : ""}: ${i.keys.join(", ")}`;
    default:
      return void 0;
  }
}
export {
  issueMessage
};
