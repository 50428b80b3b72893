/** The table page's words (ordering from the table, issue 63), Spanish or English from the browser's language. */
const EN = {
  table: 'Table', menu: 'Menu', ask: 'Ask the waiter', basket: 'Your choice', none: 'Nothing is served right now.', add: 'Add', less: 'One less',
  sent: 'Sent to your waiter: they will confirm it at the table.', accepted: 'Your waiter confirmed it: it is on its way.', declined: 'Your waiter could not take it',
  more: 'Ask for more', gone: 'This link is no longer valid', note: 'Nothing is ordered until your waiter confirms it; you pay on the bill.',
};
const ES: typeof EN = {
  table: 'Mesa', menu: 'Carta', ask: 'Pedir al mesero', basket: 'Tu elección', none: 'Ahora no se sirve nada.', add: 'Añadir', less: 'Uno menos',
  sent: 'Enviado a tu mesero: lo confirmará en la mesa.', accepted: 'Tu mesero lo confirmó: ya va en camino.', declined: 'Tu mesero no pudo tomarlo',
  more: 'Pedir algo más', gone: 'Este enlace ya no es válido', note: 'Nada se pide hasta que tu mesero lo confirme; se paga en la cuenta.',
};
export const T = (navigator.language || 'en').toLowerCase().startsWith('es') ? ES : EN;
export const LOCALE = T === ES ? 'es' : 'en';

/** The EU's 14 allergens in the guest's language (the API names them in English keys). */
const ALLERGENS_ES: Record<string, string> = {
  gluten: 'gluten', crustaceans: 'crustáceos', eggs: 'huevo', fish: 'pescado', peanuts: 'cacahuate', soybeans: 'soya', milk: 'leche', nuts: 'frutos secos',
  celery: 'apio', mustard: 'mostaza', sesame: 'sésamo', sulphites: 'sulfitos', lupin: 'altramuces', molluscs: 'moluscos',
};
export const allergen = (key: string): string => (LOCALE === 'es' ? ALLERGENS_ES[key] ?? key : key);
