/** Small word lists the seeded data draws from. */

export const FIRST_NAMES = [
  "Jean",
  "Marie",
  "Hugo",
  "Léa",
  "Lucas",
  "Chloé",
  "Louis",
  "Emma",
  "Gabriel",
  "Manon",
  "Arthur",
  "Camille",
  "Jules",
  "Inès",
  "Raphaël",
  "Sarah",
  "Nathan",
  "Zoé",
  "Théo",
  "Anaïs",
] as const;

export const LAST_NAMES = [
  "Durant",
  "Martin",
  "Bernard",
  "Dubois",
  "Thomas",
  "Robert",
  "Richard",
  "Petit",
  "Lefèvre",
  "Moreau",
  "Laurent",
  "Simon",
  "Michel",
  "Garcia",
  "Roux",
  "Fournier",
  "Girard",
  "Bonnet",
  "Mercier",
  "Faure",
] as const;

export const SHIRT_SIZES = ["S", "M", "L", "XL"] as const;

export const DIETS = ["Aucun", "Végétarien", "Sans gluten", "Végétalien"] as const;

/** ASCII lower case, accents removed: for e-mail addresses. */
export function asciiLower(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z0-9]/g, "")
    .toLowerCase();
}

/** Each first and last name with its e-mail form, made once: a payer is generated for every order served. */
export const PAYER_NAMES = Object.freeze({
  first: Object.freeze(FIRST_NAMES.map((name) => [name, asciiLower(name)] as const)),
  last: Object.freeze(LAST_NAMES.map((name) => [name, asciiLower(name)] as const)),
});
