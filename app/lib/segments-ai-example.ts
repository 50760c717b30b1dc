// For the tests of Use AI (the server's writer and the dialog's call of it): a description a
// person types, the conditions a language model answers for it, and the builder's rows of those.
export const PUNE = "Birthday this week in Pune, bought a saree, opened something in 90 days";

export const PUNE_CONDITIONS = {
  $and: [
    { "field:birthday": { $anniversaryWithinDays: 7 } },
    { "field:city": { $eq: "Pune" } },
    { boughtProduct: { $eq: "Saree" } },
    { lastOpenDate: { $gte: { $daysAgo: 90 } } },
  ],
};

export const PUNE_ROWS = {
  logic: "AND",
  children: [
    { kind: "condition", field: "field:birthday", op: "$anniversaryWithinDays", value: "7" },
    { kind: "condition", field: "field:city", op: "$eq", value: "Pune" },
    { kind: "condition", field: "boughtProduct", op: "$eq", value: "Saree" },
    { kind: "condition", field: "lastOpenDate", op: "$gte:daysAgo", value: "90" },
  ],
};
