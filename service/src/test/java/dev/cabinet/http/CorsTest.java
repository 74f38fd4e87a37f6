package dev.cabinet.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.nullValue;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

/** CORS is off unless configured: no browser on another origin is told it may call the API. */
@QuarkusTest
class CorsTest {

    @Test
    void noOriginIsAllowedByDefault() {
        given().header("Origin", "https://elsewhere.example").header("Access-Control-Request-Method", "POST")
                .options("/posts").then().header("Access-Control-Allow-Origin", nullValue());
        given().header("Origin", "https://elsewhere.example").get("/posts?status=published").then().statusCode(200)
                .header("Access-Control-Allow-Origin", nullValue());
    }
}
