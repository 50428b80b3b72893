/** The guest page's words, Spanish or English from the browser's language. */
const EN = {
  bill: 'Your bill', total: 'Total', paid: 'Paid', remaining: 'Left to pay', service: 'Service charge', tax: 'Tax',
  all: 'Pay all', even: 'Even share', mine: 'My items', guests: 'Guests', tip: 'Tip', own: 'Other', ownTip: 'My tip', pay: 'Pay', payNow: 'Pay with a Lightning wallet',
  expires: 'Rate locked for', paidDone: 'Paid, thank you!', closed: 'This bill is paid', cancelled: 'This bill was cancelled', gone: 'This link is no longer valid',
  withdrawn: 'Someone else paid this bill meanwhile: do not pay this invoice.', expired: 'This invoice has run out: go back to pay.',
  copy: 'Invoice', receipt: 'Receipt', print: 'Print', back: 'Back', pick: 'Choose your items', linePaid: 'Paid', linePaying: 'Being paid',
  amount: 'Amount', held: 'Paid beyond the bill (staff give it back)', payment: 'Payment', date: 'Date', rest: 'The rest of the bill',
  evenShare: (n: number) => `One of ${n} even shares of the bill`,
  tipTooHigh: (cap: string) => `A tip can be at most the bill's total, ${cap}`,
};
const ES: typeof EN = {
  bill: 'Tu cuenta', total: 'Total', paid: 'Pagado', remaining: 'Por pagar', service: 'Servicio', tax: 'Impuesto',
  all: 'Pagar todo', even: 'Partes iguales', mine: 'Lo mío', guests: 'Personas', tip: 'Propina', own: 'Otra', ownTip: 'Mi propina', pay: 'Pagar', payNow: 'Pagar con una cartera Lightning',
  expires: 'Tipo de cambio fijo por', paidDone: '¡Pagado, gracias!', closed: 'Esta cuenta está pagada', cancelled: 'Esta cuenta fue cancelada', gone: 'Este enlace ya no es válido',
  withdrawn: 'Alguien más pagó esta cuenta: no pagues esta factura.', expired: 'Esta factura venció: vuelve para pagar.',
  copy: 'Factura', receipt: 'Recibo', print: 'Imprimir', back: 'Volver', pick: 'Elige lo tuyo', linePaid: 'Pagado', linePaying: 'En pago',
  amount: 'Importe', held: 'Pagado de más (el personal lo devuelve)', payment: 'Pago', date: 'Fecha', rest: 'El resto de la cuenta',
  evenShare: (n: number) => `Una de ${n} partes iguales de la cuenta`,
  tipTooHigh: (cap: string) => `La propina puede ser a lo más el total de la cuenta, ${cap}`,
};
export const T = (navigator.language || 'en').toLowerCase().startsWith('es') ? ES : EN;
export const LOCALE = T === ES ? 'es' : 'en';
