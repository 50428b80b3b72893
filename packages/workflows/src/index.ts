/**
 * The application layer: one plain function per use case that spans streams or needs lookups.
 * Each takes its dependencies as parameters (command handler, policy, clock…) and is called by routes
 * and process managers alike; see docs/architecture.md, "Layers".
 */
export { type DishRequest, linesFrom } from './orders/lines.js';
export { later, onFloor, orderState, releaseAfter, releaseTableUnlessSeated, seat, tableNow, unseat } from './orders/seating.js';
export { orderAmountDue, requirePaid } from './orders/amount-due.js';
export { type PlaceOrder, placeOrder } from './orders/placeOrder.js';
export { type Held, type Hold, type Portions, givePortionsBack, holdPortions, withPortions } from './orders/dish-portions.js';
export { type AddDishes, addDishes } from './orders/addDishes.js';
export { type AcceptGuestRequest, acceptGuestRequest } from './orders/acceptGuestRequest.js';
export { type ChangeLine, changeLine } from './orders/changeLine.js';
export { type UpdateOrder, type UpdateOrderPolicy, updateOrder } from './orders/updateOrder.js';
export { deleteOrder } from './orders/deleteOrder.js';
export { type MoveLines, mergeOrders, moveLines } from './orders/moveLines.js';
export { type CloseOrder, closeIfPaid, closeOrder } from './orders/closeOrder.js';
export { type GiveDiscount, giveDiscount } from './orders/giveDiscount.js';
export { removeDiscount } from './orders/removeDiscount.js';
export { type SetDishStock, setDishStock } from './menu/setDishStock.js';
export { orderIsOpen } from './floor/open-orders.js';
export { addTable } from './floor/addTable.js';
export { setUpTable } from './floor/setUpTable.js';
export { removeTable } from './floor/removeTable.js';
export { moveTable } from './floor/moveTable.js';
export { reshapeTable } from './floor/reshapeTable.js';
export { drawSection } from './floor/drawSection.js';
export { changeSection } from './floor/changeSection.js';
export { removeSection } from './floor/removeSection.js';
export { type HashPin, addStaff, changeStaff, removeStaff } from './staff/changeStaff.js';
export { revokeSession } from './staff/revokeSession.js';
export { correctShift } from './staff/correctShift.js';
export * from './checkout/ports.js';
export * from './checkout/checkoutTicket.js';
export * from './checkout/settleLightningPayment.js';
export * from './checkout/refund-destination.js';
export * from './checkout/refundLightningPayment.js';
export * from './bills/issueTickets.js';
export * from './bills/open-shift.js';
export * from './bills/takePayment.js';
export * from './bills/refundPayment.js';
export * from './bills/voidTicketLine.js';
export * from './bills/takeOffServiceCharge.js';
export * from './bills/cancelTicket.js';
export * from './bills/reopenTicket.js';
export * from './bills/shifts.js';
export * from './wallet/payFromWallet.js';
export * from './printing/printKitchenTicket.js';
export { type SettingsFromEnvironment, currentSettings, settingsDefaults } from './settings/currentSettings.js';
