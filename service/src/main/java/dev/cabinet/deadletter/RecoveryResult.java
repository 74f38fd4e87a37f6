package dev.cabinet.deadletter;

/** What an operator's retry or discard did: the key's state afterwards, and how many events it applied or discarded. */
public record RecoveryResult(String id, String state, int applied, int discarded) {
}
