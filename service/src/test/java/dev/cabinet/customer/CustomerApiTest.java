package dev.cabinet.customer;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.allPages;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import dev.cabinet.support.Concurrently;
import dev.cabinet.table.Shards;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/** The second seed's cabinet: a customer's profile and orders (14), an order by id (15), a day's orders (16). */
@QuarkusTest
class CustomerApiTest {

    @ConfigProperty(name = "cabinet.orders.shards")
    int shards;

    private final String clerk = newUserId();

    @Test
    void aCustomersCabinetHoldsTheProfileAndOrdersSortedByDate() {
        String customer = "C" + Ids.newId();
        register(customer, "Ada Shop");
        String o100 = "O" + Ids.newId();
        String o105 = "O" + Ids.newId();
        String o107 = "O" + Ids.newId();
        place(customer, o105, "2026-06-09T15:00:00Z", "12.50");
        place(customer, o100, "2026-06-01T09:30:00Z", "99.99");
        place(customer, o107, "2026-06-12T08:00:00Z", "5.00");
        awaitOk("/orders/" + o107);

        JsonPath cabinet = given().queryParam("include", "orders").get("/customers/" + customer).then().statusCode(200)
                .body("id", equalTo(customer))
                .body("name", equalTo("Ada Shop"))
                .extract().jsonPath();
        assertEquals(List.of(o107, o105, o100), cabinet.getList("orders.items.id"), "profile and newest orders, one Query");

        String orders = "/customers/" + customer + "/orders";
        assertEquals(List.of(o100, o105, o107), allPages(orders, 2, "id"), "oldest first by date");
        assertEquals(List.of(o100, o105), allPages(orders + "?from=2026-06-01&to=2026-06-09", 10, "id"), "inclusive ends");
        assertEquals(List.of(o105), allPages(orders + "?from=2026-06-09&to=2026-06-09", 10, "id"), "a single day");
        assertEquals(List.of(), allPages(orders + "?from=2026-06-02&to=2026-06-08", 10), "no order in between");
        assertEquals(List.of(o107, o105), allPages(orders + "?from=2026-06-05&order=desc", 10, "id"));

        given().get("/orders/" + o100).then().statusCode(200)
                .body("customerId", equalTo(customer))
                .body("orderDate", equalTo("2026-06-01"))
                .body("placedAt", equalTo("2026-06-01T09:30:00.000Z"))
                .body("total", equalTo("99.99"))
                .body("status", equalTo("placed"));
    }

    @Test
    void anOrderChangesStatusThroughItsIdAndTheChangeShowsEverywhere() {
        String customer = "C" + Ids.newId();
        register(customer, "Status Co");
        String order = "O" + Ids.newId();
        place(customer, order, "2026-07-01T10:00:00Z", "10.00");
        awaitOk("/orders/" + order);

        as(clerk).body(Map.of("status", "shipped")).patch("/orders/" + order).then().statusCode(202)
                .body("type", equalTo("cabinet.customer.order-status-changed.v1"));
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> {
            given().get("/orders/" + order).then().body("status", equalTo("shipped"));
            given().get("/customers/" + customer + "/orders").then().body("items[0].status", equalTo("shipped"));
        });
        as(clerk).body(Map.of("status", "shipped")).patch("/orders/" + order).then().statusCode(409);
        as(clerk).body(Map.of("status", "lost")).patch("/orders/" + order).then().statusCode(400)
                .body("errors.field", hasItem("status"));
        as(clerk).body(Map.of("status", "paid")).patch("/orders/" + newUserId()).then().statusCode(404);
    }

    @Test
    void registeringACustomerAgainReplacesTheProfileAndKeepsTheOrders() {
        String customer = "C" + Ids.newId();
        register(customer, "First Name");
        String order = "O" + Ids.newId();
        place(customer, order, "2026-07-02T10:00:00Z", "3.00");
        awaitOk("/orders/" + order);

        as(clerk).body(Map.of("name", "Second Name", "email", "second@example.com")).put("/customers/" + customer)
                .then().statusCode(202);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().queryParam("include", "orders")
                .get("/customers/" + customer).then().statusCode(200)
                .body("name", equalTo("Second Name"))
                .body("email", equalTo("second@example.com"))
                .body("orders.items.id", equalTo(List.of(order))));
    }

    @Test
    void aDaysOrdersAreMergedFromEveryShardInTheOrderTheyWerePlaced() {
        String date = String.format("20%02d-%02d-%02d", ThreadLocalRandom.current().nextInt(40, 99),
                ThreadLocalRandom.current().nextInt(1, 13), ThreadLocalRandom.current().nextInt(1, 29));
        List<String> placed = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            String customer = "C" + Ids.newId();
            register(customer, "Day customer " + c);
            for (int i = 0; i < 4; i++) {
                String order = "O" + Ids.newId();
                place(customer, order, date + "T" + String.format("%02d:%02d:00Z", 8 + i, c * 10), "1.00");
                placed.add(order);
            }
        }
        Set<Integer> used = placed.stream().map(o -> Shards.of(o, shards)).collect(Collectors.toSet());
        assertTrue(used.size() > 1, "the orders should spread over several shards: " + used);
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> assertEquals(12,
                allPages("/orders?date=" + date, 100).size()));

        List<Map<String, Object>> day = allPages("/orders?date=" + date, 5);
        List<Object> placedAt = day.stream().map(o -> o.get("placedAt")).toList();
        assertEquals(placedAt.stream().sorted().toList(), placedAt, "in placing order");
        assertEquals(Set.copyOf(placed), day.stream().map(o -> o.get("id")).collect(Collectors.toSet()));
        assertEquals(12, day.size(), "each order once");
        assertEquals(List.of(), allPages("/orders?date=1999-01-01", 10), "a day without orders");
    }

    /**
     * An oldest-first list read page by page lists what arrives meanwhile after the cursor, in whichever shard: a shard
     * that gave its last item on the first page is read again on the next.
     */
    @Test
    void anOrderPlacedWhileADayIsPagedInAShardAlreadyReadToItsEndIsListedOnALaterPage() {
        String date = String.format("20%02d-%02d-%02d", ThreadLocalRandom.current().nextInt(40, 99),
                ThreadLocalRandom.current().nextInt(1, 13), ThreadLocalRandom.current().nextInt(1, 29));
        String customer = "C" + Ids.newId();
        register(customer, "Late orders");
        String early = orderIn(0);
        place(customer, early, date + "T08:00:00Z", "1.00");
        List<String> others = List.of(orderIn(1), orderIn(1), orderIn(1));
        for (int i = 0; i < others.size(); i++) {
            place(customer, others.get(i), date + String.format("T%02d:00:00Z", 9 + i), "1.00");
        }
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> assertEquals(4,
                allPages("/orders?date=" + date, 100).size()));

        JsonPath first = given().queryParam("limit", 2).get("/orders?date=" + date).then().statusCode(200)
                .extract().jsonPath();
        assertEquals(List.of(early, others.get(0)), first.getList("items.id"));
        String late = orderIn(0);   // the shard the first page read to its end
        place(customer, late, date + "T23:00:00Z", "1.00");
        awaitOk("/orders/" + late);

        List<Object> rest = new ArrayList<>();
        String cursor = first.getString("next");
        while (cursor != null) {
            JsonPath page = given().queryParam("limit", 2).queryParam("cursor", cursor).get("/orders?date=" + date)
                    .then().statusCode(200).extract().jsonPath();
            rest.addAll(page.getList("items.id"));
            cursor = page.getString("next");
        }
        assertEquals(List.of(others.get(1), others.get(2), late), rest);
    }

    /** A new order id in shard {@code shard}. */
    private String orderIn(int shard) {
        String order;
        do {
            order = "O" + Ids.newId();
        } while (Shards.of(order, shards) != shard);
        return order;
    }

    @Test
    void badCustomerAndOrderRequestsAreRefused() {
        String customer = "C" + Ids.newId();
        as(clerk).body(Map.of("name", "No mail")).put("/customers/" + customer).then().statusCode(400)
                .body("errors.field", hasItem("email"));
        as(clerk).body(Map.of("total", "1.00")).post("/customers/" + customer + "/orders").then().statusCode(404);
        register(customer, "Checks");
        String order = "O" + Ids.newId();
        place(customer, order, "2026-08-01T10:00:00Z", "1.00");
        awaitOk("/orders/" + order);
        as(clerk).body(Map.of("orderId", order, "total", "2.00")).post("/customers/" + customer + "/orders").then()
                .statusCode(409);
        for (String total : List.of("-1.00", "1.234", "1.5", "1", "01.00", "1000000000.01", "1e3", "")) {
            as(clerk).body(Map.of("total", total)).post("/customers/" + customer + "/orders").then().statusCode(400)
                    .body("errors.field", hasItem("total"));
        }
        // Money is a decimal string: a JSON number, which most clients hold as a float, is refused as such.
        for (Object number : List.of(1, 19.99, new BigDecimal("129.90"))) {
            as(clerk).body(Map.of("total", number)).post("/customers/" + customer + "/orders").then().statusCode(400)
                    .body("errors.field", hasItem("total")).body("detail", containsString("wrong type"));
        }
        as(clerk).body(Map.of("total", "1.00", "placedAt", "noon")).post("/customers/" + customer + "/orders").then()
                .statusCode(400).body("errors.field", hasItem("placedAt"));
        given().get("/orders").then().statusCode(400).body("errors.field", hasItem("date"));
        given().get("/orders?date=2026-02-30").then().statusCode(400);
        given().get("/customers/" + customer + "/orders?from=2026-06-09&to=2026-06-01").then().statusCode(400);
        given().get("/customers/" + customer + "?include=everything").then().statusCode(400);
        given().get("/customers/" + newUserId()).then().statusCode(404).contentType("application/problem+json");
        given().contentType("application/json").body(Map.of("name", "A", "email", "a@example.com"))
                .put("/customers/" + customer).then().statusCode(401);
    }

    /**
     * An order id is used once across customers. GSI1, which a placement's decision reads, holds an order only once it
     * is projected, so placements of one id sent together all passed it and each customer got an order of that id
     * (GET /orders/{id} then answered either). The id's reservation lets exactly one through.
     */
    @Test
    void placementsOfOneOrderIdSentTogetherAcceptOneAndTheOthersAreConflicts() {
        List<String> shoppers = List.of("C" + Ids.newId(), "C" + Ids.newId(), "C" + Ids.newId());
        shoppers.forEach(customer -> register(customer, "Shopper"));
        for (int round = 0; round < 3; round++) {
            String order = "O" + Ids.newId();
            List<Integer> statuses = Concurrently.map(shoppers, customer -> as(clerk)
                    .body(Map.of("orderId", order, "placedAt", "2026-09-0" + (shoppers.indexOf(customer) + 1)
                            + "T10:00:00Z", "total", "3.00"))
                    .post("/customers/" + customer + "/orders").then().extract().statusCode());
            assertEquals(1, statuses.stream().filter(status -> status == 202).count(), "statuses " + statuses);
            assertEquals(2, statuses.stream().filter(status -> status == 409).count(), "statuses " + statuses);
            String winner = shoppers.get(statuses.indexOf(202));
            awaitOk("/orders/" + order);
            given().get("/orders/" + order).then().body("customerId", equalTo(winner));
            for (String customer : shoppers) {
                assertEquals(customer.equals(winner) ? List.of(order) : List.of(),
                        allPages("/customers/" + customer + "/orders?from=2026-09-01&to=2026-09-03", 10, "id")
                                .stream().filter(order::equals).toList(), customer);
            }
        }
        // The same customer placing an id again before it is projected: refused, not a second order over the first.
        String customer = shoppers.get(0);
        String order = "O" + Ids.newId();
        place(customer, order, "2026-09-04T10:00:00Z", "4.00");
        as(clerk).body(Map.of("orderId", order, "placedAt", "2026-09-05T10:00:00Z", "total", "5.00"))
                .post("/customers/" + customer + "/orders").then().statusCode(409)
                .body("detail", containsString(order));
        awaitOk("/orders/" + order);
        given().get("/orders/" + order).then().body("total", equalTo("4.00")).body("placedAt",
                equalTo("2026-09-04T10:00:00.000Z"));
    }

    private void register(String customer, String name) {
        as(clerk).body(Map.of("name", name, "email", customer + "@example.com")).put("/customers/" + customer).then()
                .statusCode(202).body("type", equalTo("cabinet.customer.registered.v1"));
        awaitOk("/customers/" + customer);
    }

    private void place(String customer, String orderId, String placedAt, String total) {
        as(clerk).body(Map.of("orderId", orderId, "placedAt", placedAt, "total", total))
                .post("/customers/" + customer + "/orders").then().statusCode(202)
                .body("id", equalTo(orderId));
    }
}
