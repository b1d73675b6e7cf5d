import ActivityPanel from "./activity-panel.tsx";
import { ActivityBoundary } from "./activity-figure.tsx";
import CattleDrivePanel from "./cattle-drive-panel.tsx";

// The Info page's figures below the create-actor panel, in one chunk of their own after the page
// itself: the first load carries a single lazy import for both (its budget, e2e/first-load).

export default function InfoPanels({ accountName }: { accountName: string }) {
  return (
    <>
      <ActivityPanel />
      <ActivityBoundary what="Cattle Drive">
        <CattleDrivePanel accountName={accountName} />
      </ActivityBoundary>
    </>
  );
}
