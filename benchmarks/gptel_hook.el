;;; gptel_hook.el --- Times albedo-skills-gptel-transform per send, in Emacs  -*- lexical-binding: t; -*-

;; Run by benchmarks/invoke.py as `emacs -Q --batch -l gptel_hook.el' in the benchmark workspace, with the
;; load path for eglot, compat, markdown-mode, gptel and this repository. It starts the server with
;; `albedo-skills-gptel-connect', as a person would in a chat, then builds gptel chats of 1 and of 8 user
;; turns that start with a skill command (the other turns' replies carry gptel's `response' property), and
;; times the transform on gptel's own prompt copy of each chat, as `gptel-send' runs it: with the catalog
;; kept from the last send ("1", "8") and, for one turn, fetched afresh as after a catalog change
;; ("1-fresh"). Prints one JSON object: milliseconds per send, per case. Parameters: JSON in
;; $ALBEDO_BENCH_PARAMS (load_path, cmd, commands, runs, warmup, events_log: nil sets
;; `eglot-events-buffer-size' to 0, so eglot keeps no log of the messages).

(require 'json)

(defvar bench-params
  (let ((json-object-type 'alist) (json-array-type 'list) (json-key-type 'symbol))
    (json-read-file (getenv "ALBEDO_BENCH_PARAMS"))))
(defun bench-param (key) (alist-get key bench-params))

(dolist (dir (bench-param 'load_path)) (add-to-list 'load-path dir))
(setq albedo-skills-server-command (bench-param 'cmd))
(setq albedo-skills-settings '(:userRoots t))
(require 'albedo-skills-gptel)
(require 'gptel)
(require 'eglot)
(unless (bench-param 'events_log) (setq eglot-events-buffer-size 0))

(defconst bench-wait-guard-seconds 60 "Only turns a server that never starts into a reported failure.")

(defun bench-chat (turns)
  "A gptel chat buffer of TURNS user turns, each a skill command with arguments, each answered."
  (let ((buffer (generate-new-buffer "*bench-chat*"))
        (commands (bench-param 'commands)))
    (with-current-buffer buffer
      (markdown-mode)
      (gptel-mode 1)
      (dotimes (index turns)
        (insert (format "### %s merge these files, turn %d\n\n" (nth (% index (length commands)) commands) index))
        (unless (= index (1- turns))
          (insert (propertize "Noted.\n\n" 'gptel 'response)))))
    buffer))

(defun bench-send-ms (chat fresh)
  "Milliseconds the transform takes on a prompt copy of CHAT, as `gptel-send' makes it.
FRESH: the server's catalog is fetched again, as after a catalog change."
  (when fresh (albedo-skills-gptel--forget-catalogs))
  (with-current-buffer chat
    (let ((prompt (gptel--create-prompt-buffer (point-max)))
          (fsm (gptel-make-fsm :info (list :buffer chat))))
      (unwind-protect
          (with-current-buffer prompt
            (let ((start (float-time)))
              (albedo-skills-gptel-transform fsm)
              (let ((elapsed (* 1000 (- (float-time) start))))
                (goto-char (point-min))
                (unless (search-forward "<albedo-skill-activation>" nil t)
                  (error "The transform wrote no activation: %s" (buffer-string)))
                elapsed)))
        (when (buffer-live-p prompt) (kill-buffer prompt))))))

(defun bench-run ()
  (let ((starter (generate-new-buffer "*bench-start*")))
    (with-current-buffer starter
      (setq default-directory (file-name-as-directory (expand-file-name default-directory)))
      (albedo-skills-gptel-connect)
      (let ((deadline (+ (float-time) bench-wait-guard-seconds)))
        (while (and (not (albedo-skills-gptel--server starter)) (< (float-time) deadline))
          (accept-process-output nil 0.05)))
      (unless (albedo-skills-gptel--server starter) (error "The server did not start"))
      ;; The catalog the connect asked for ahead: its answer also says the first discovery is done.
      (let ((server (albedo-skills-gptel--server starter))
            (deadline (+ (float-time) bench-wait-guard-seconds)))
        (while (and (eq (gethash server albedo-skills-gptel--catalogs 'none) 'none) (< (float-time) deadline))
          (accept-process-output nil 0.05)))))
  (let (result)
    (pcase-dolist (`(,label ,turns ,fresh) '(("1" 1 nil) ("8" 8 nil) ("1-fresh" 1 t)))
      (let ((chat (bench-chat turns)) samples)
        (dotimes (_ (bench-param 'warmup)) (bench-send-ms chat fresh))
        (dotimes (_ (bench-param 'runs)) (push (bench-send-ms chat fresh) samples))
        (push (cons label (vconcat (nreverse samples))) result)))
    (princ (json-encode result))))

(condition-case err
    (bench-run)
  (error (princ (json-encode (list (cons 'error (format "%S" err)))))))
(ignore-errors (eglot-shutdown-all))
(kill-emacs 0)
