// For the tests of Use AI (the server's writer and the dialog's call of it): a description a
// person types, and the conditions a language model answers for it.
export const PUNE = "Birthday this week in Pune, bought a saree, opened something in 90 days";

export const PUNE_CONDITIONS = {
  $and: [
    { "field:birthday": { $anniversaryWithinDays: 7 } },
    { "field:city": { $eq: "Pune" } },
    { boughtProduct: { $eq: "Saree" } },
    { lastOpenDate: { $gte: { $daysAgo: 90 } } },
  ],
};
