import { Moment } from "../../components/moment/index.ts";
import { Box, Button, List, ListItem, Paper, Typography } from "@mui/material";
import type { RecentLookup } from "./lookup-history.ts";

type RecentLookupsProps = {
  recent: RecentLookup[];
  /** Ids of the lookups chosen with "Compare" so far. */
  comparing: string[];
  onRun: (uri: string) => void;
  onCompare: (id: string) => void;
};

/** "Recent lookups": a click on a URI runs it again; "Compare" on two shows their difference. */
export function RecentLookups({ recent, comparing, onRun, onCompare }: RecentLookupsProps) {
  return (
    <Paper
      component="section"
      aria-labelledby="recent-lookups-title"
      variant="outlined"
      sx={{ p: 2, mt: 3 }}
    >
      <Typography id="recent-lookups-title" variant="h6" component="h2">
        Recent lookups
      </Typography>
      {recent.length === 0 ? (
        <Typography color="text.secondary">None yet: URIs you look up are listed here.</Typography>
      ) : (
        <List dense disablePadding>
          {recent.map((item) => (
            <ListItem key={item.id} disableGutters sx={{ gap: 1, flexWrap: "wrap" }}>
              <Button
                onClick={() => onRun(item.uri)}
                sx={{
                  textTransform: "none",
                  textAlign: "left",
                  wordBreak: "break-all",
                  flex: "1 1 12em",
                  justifyContent: "flex-start",
                }}
              >
                {item.uri}
              </Button>
              <Box component="span" sx={{ fontSize: "0.75rem", color: "text.secondary" }}>
                <Moment at={item.at} />
              </Box>
              <Button
                size="small"
                variant={comparing.includes(item.id) ? "contained" : "outlined"}
                aria-pressed={comparing.includes(item.id)}
                disabled={item.document === undefined}
                title={
                  item.document === undefined
                    ? "Nothing was found at this URI to compare"
                    : undefined
                }
                onClick={() => onCompare(item.id)}
              >
                Compare
              </Button>
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}
