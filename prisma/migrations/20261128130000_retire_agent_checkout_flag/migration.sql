-- The agent_checkout feature flag is retired: whether AI agents may buy is the commerce setting's agentAccess ("off" for
-- none), the one switch the UCP and ACP doors enforce. The flag was never enforced, so agents bought whatever it said
-- (its default was off): every shop keeps its agentAccess as it is, and the flag's row goes, so no second switch remains.
DELETE FROM "FeatureFlag" WHERE "key" = 'agent_checkout';
