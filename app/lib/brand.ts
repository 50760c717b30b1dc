export const BRAND = "Campaign CRM";
export const TAGLINE = "Managing your customers made easy";
