import type { ComponentType } from 'react';
import { Navigate } from 'react-router';
import { ResourcePage } from '../resource/ResourcePage';
import { pagePlanFor } from './definitions';

function NotFound() {
  return <Navigate to="/404" replace />;
}

/**
 * The page of a menu route: the custom page of its definition (`page: 'custom'`, modules/pages.ts), else
 * the generic list page; a route no definition names goes to /404.
 */
export async function resolvePage(route: string): Promise<ComponentType> {
  const plan = pagePlanFor(route);
  if (!plan) return NotFound;
  const { def } = plan;
  if (plan.kind === 'custom') {
    const { default: Custom } = await plan.load();
    return function CustomResourcePage() {
      return <Custom def={def} />;
    };
  }
  return function GenericResourcePage() {
    return <ResourcePage def={def} />;
  };
}
