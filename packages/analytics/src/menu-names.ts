import { type ReplayedEvent, isOneOf } from '@comanda/event-store';
import type { MenuEvent } from '@comanda/domain';

export const MENU_NAME_EVENTS = ['CategoryAdded', 'CategoryRenamed', 'DishAdded', 'DishUpdated', 'StationAdded', 'StationRenamed'] as const;

/**
 * The menu's names as the log last gave them: a report prints today's name of a dish sold last
 * month. Removed dishes, categories and stations keep their last name.
 */
export class MenuNames {
  readonly dishes = new Map<string, { name: string; categoryId: string }>();
  readonly categories = new Map<string, string>();
  readonly stations = new Map<string, string>();

  apply(event: ReplayedEvent): void {
    if (!isOneOf<MenuEvent>(event, MENU_NAME_EVENTS)) return;
    const e = event;
    switch (e.type) {
      case 'CategoryAdded':
      case 'CategoryRenamed':
        this.categories.set(e.data.categoryId, e.data.name);
        break;
      case 'DishAdded':
      case 'DishUpdated':
        this.dishes.set(e.data.dishId, { name: e.data.name, categoryId: e.data.categoryId });
        break;
      case 'StationAdded':
      case 'StationRenamed':
        this.stations.set(e.data.stationId, e.data.name);
        break;
      default:
        break;
    }
  }

  dish(id: string): string {
    return this.dishes.get(id)?.name ?? id;
  }

  categoryOf(dishId: string): string | null {
    return this.dishes.get(dishId)?.categoryId ?? null;
  }
}
