-- Storefront sessions signed in by a checkout lose their customer (issue 36). cart.checkout used to bind the session to
-- the customer it created for an e-mail the shop had never seen, for the cookie's 365 days, without the e-mail ever
-- being proven: that browser then saw, cancelled and re-addressed the real owner's later orders. Only a login code binds
-- a session now. No column says where a binding came from, but the login codes do: user.verify_login_code marks the code
-- used (usedAt) in the same transaction that binds the session to the customer of the code's e-mail, codes are never
-- deleted but with their session, and they follow its id when sign-in renames it (ON UPDATE CASCADE). So a binding
-- without a used code of this session for the bound customer's e-mail was never proven (the checkout one, also after a
-- sign-out and a checkout with another address), and is cleared. The orders such a session placed stay reachable by
-- Order.sessionId; the customer's others, the address book and store credit take the code. Demo seeds made before this
-- migration lose the demo shopper's binding too (it was written without a code).
UPDATE "StorefrontSession" AS s
SET "customerId" = NULL
WHERE s."customerId" IS NOT NULL
  AND NOT EXISTS (
    SELECT 1
    FROM "LoginCode" AS l
    JOIN "Customer" AS c ON c."id" = s."customerId"
    WHERE l."sessionId" = s."id" AND l."usedAt" IS NOT NULL AND lower(l."email") = lower(c."email")
  );
