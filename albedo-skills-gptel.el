;;; albedo-skills-gptel.el --- Albedo's skill commands in gptel chats  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: tools, convenience

;;; Commentary:

;; In a gptel chat buffer, a user turn that starts with a skill's command (`/demo merge these files')
;; reaches the model as the skill's activation, while the buffer keeps what was typed.
;;
;; - `albedo-skills-gptel-transform', an entry of `gptel-prompt-transform-functions', rewrites every user
;;   turn of the prompt (gptel re-sends the whole buffer each time, so earlier `/skill' turns keep their
;;   activation) through the running albedo-skills-ls server: `commands.catalog' says which first words
;;   are skills, `commands.invoke' (user mode) gives each turn's activation.  Everything else goes as
;;   typed: Albedo's built-ins (`/help', `/model', `/reload'), unknown commands, other text.
;; - No server, or no answer within `albedo-skills-gptel-timeout': the prompt goes as typed and one
;;   message says why.  A refusal (a skill changed on disk or became invalid): the send stops with a
;;   message saying why; `M-x albedo-skills-gptel-reload', then send again.
;; - `albedo-skills-gptel-mode', on in every gptel chat buffer: `C-M-i' (M-TAB) completes a skill command
;;   typed at a turn's start; anywhere else the key keeps its usual command (ispell's word completion in
;;   Markdown).  The completion function is also on `completion-at-point-functions', for corfu or company.
;;
;; - The server is the one eglot runs for the chat's project (the nearest folder holding .agents, .albedo
;;   or .git).  A chat starts it by itself when it opens (`albedo-skills-gptel-auto-connect'), and a
;;   completion or a send made while it starts waits for it within `albedo-skills-gptel-timeout'.  How
;;   the server is found, started and asked: albedo-skills-gptel-server.el.
;;
;; Setup:  (require 'albedo-skills-gptel)   ; loads no gptel: it hooks in once gptel is loaded

;;; Code:

(require 'cl-lib)
(require 'subr-x)
(require 'albedo-skills)
(require 'albedo-skills-gptel-server)

(defvar gptel-mode)
(defvar gptel-mode-hook)
(defvar gptel-prompt-transform-functions)
(declare-function gptel-fsm-info "gptel-request")
(declare-function gptel-prompt-prefix-string "gptel-request")
(declare-function gptel-response-prefix-string "gptel-request")

(defconst albedo-skills-gptel-timeout-limit 10.0
  "The longest a send or a completion waits for the server, in seconds.
It holds whatever `albedo-skills-gptel-timeout' says.")

(defconst albedo-skills-gptel-default-timeout 2.0
  "The wait `albedo-skills-gptel-timeout' starts at, in seconds.
A long chat re-sends every skill turn, and each is asked again: one second
was seen to run out on a loaded machine; Neovim's chats wait as long.")

(defcustom albedo-skills-gptel-timeout albedo-skills-gptel-default-timeout
  "Seconds a gptel send (or a completion) waits for the server at most.
All of a send's requests share this one budget; past it the prompt goes
as typed.  Values above `albedo-skills-gptel-timeout-limit' count as that."
  :type 'number
  :group 'albedo-skills)

(defvar albedo-skills-gptel-last-duration nil
  "Seconds the last `albedo-skills-gptel-transform' took, server requests included.")

(defun albedo-skills-gptel--timeout ()
  "The wait budget in seconds: `albedo-skills-gptel-timeout' within (0, limit]."
  (let ((wanted (if (numberp albedo-skills-gptel-timeout) albedo-skills-gptel-timeout albedo-skills-gptel-default-timeout)))
    (min albedo-skills-gptel-timeout-limit (max 0.001 wanted))))

;;;; The turns of a prompt

(defun albedo-skills-gptel--skill-command-p (command entries)
  "Non-nil when COMMAND (`/demo', `/skill:demo') names a skill of ENTRIES."
  (cl-some (lambda (entry)
             (or (equal command (plist-get entry :command))
                 (equal command (concat "/skill:" (plist-get entry :name)))))
           entries))

(defconst albedo-skills-gptel--command-regexp "/[^[:space:]/]+\\(?:[[:space:]]\\|\\'\\)"
  "A command at a turn's start: `/' and a name, then white space or the turn's end.
A second `/' makes it a path, as in the server's chat files.")

(defun albedo-skills-gptel--skip-prompt-prefix ()
  "Move past white space, gptel's prompt prefix and white space.
The prefix is `### ' in Markdown chats."
  (skip-chars-forward "\t\r\n ")
  (let ((prefix (string-trim (gptel-prompt-prefix-string))))
    (when (and (not (string-empty-p prefix)) (looking-at (regexp-quote prefix)))
      (goto-char (match-end 0))))
  (skip-chars-forward "\t\r\n "))

(defun albedo-skills-gptel--turn (start end)
  "The command of the user turn from START to END, or nil.
Returns (COMMAND-START TEXT-END COMMAND ARGUMENTS): the arguments are the
rest of the turn, leading and trailing white space left out (gptel trims
each message the same way), TEXT-END where that text ends."
  (save-excursion
    (save-restriction
      (narrow-to-region start end)
      (goto-char start)
      (albedo-skills-gptel--skip-prompt-prefix)
      (when (looking-at albedo-skills-gptel--command-regexp)
        (let* ((command-start (point))
               (command (string-trim-right (match-string-no-properties 0)))
               (text-end (progn (goto-char (point-max))
                                (skip-chars-backward "\t\r\n ")
                                (let ((suffix (string-trim (gptel-response-prefix-string))))
                                  (when (and (not (string-empty-p suffix))
                                             (looking-back (regexp-quote suffix) command-start))
                                    (goto-char (match-beginning 0))
                                    (skip-chars-backward "\t\r\n ")))
                                (point)))
               (arguments-start (progn (goto-char (+ command-start (length command)))
                                       (skip-chars-forward "\t\r\n " text-end)
                                       (point))))
          (list command-start text-end command
                (buffer-substring-no-properties arguments-start text-end)))))))

(defun albedo-skills-gptel--turns ()
  "The user turns of this prompt buffer that start with a command, last first.
A user turn is a stretch of text without gptel's `gptel' property."
  (let ((position (point-min)) turns)
    (while (< position (point-max))
      (let ((end (next-single-property-change position 'gptel nil (point-max))))
        (unless (get-text-property position 'gptel)
          (when-let ((turn (albedo-skills-gptel--turn position end)))
            (push turn turns)))
        (setq position end)))
    turns))

;;;; The transform

(defun albedo-skills-gptel--answers (origin calls deadline)
  "The activations of CALLS, a list of (COMMAND . ARGUMENTS), from ORIGIN's server.
Waits until DEADLINE at most.  Returns a list parallel to CALLS, each the
activation's model input or nil (not a skill: it goes as typed); or a
string saying why everything goes as typed (no server, no answer in
time); or (refused COMMAND MESSAGE)."
  (let ((server (albedo-skills-gptel--server-or-wait origin deadline)))
    (cond
     ((not server)
      (albedo-skills-gptel--why
       'no-server
       "no albedo-skills-ls server runs for %s, so %s went as typed (open a SKILL.md there, \
or M-x albedo-skills-gptel-connect)"
       (albedo-skills-gptel--project-name origin) (caar calls)))
     ((eq server 'starting)
      (albedo-skills-gptel--why
       'starting "albedo-skills-ls is still starting for %s, so %s went as typed (send again once it is connected)"
       (albedo-skills-gptel--project-name origin) (caar calls)))
     (t
      (let ((entries (albedo-skills-gptel--skill-entries server deadline)))
        (cond
         ((eq entries 'timeout) (albedo-skills-gptel--late-text calls))
         ((stringp entries)
          (albedo-skills-gptel--why 'catalog "the server refused its catalog (%s), so the prompt went as typed"
                                    entries))
         (t
          (let* ((skill-calls (cl-remove-if-not
                               (lambda (call) (albedo-skills-gptel--skill-command-p (car call) entries))
                               calls))
                 (answers (albedo-skills-gptel--execute
                           server
                           (mapcar (lambda (call) (list "commands.invoke" (car call) (cdr call) "user"))
                                   skill-calls)
                           deadline))
                 ;; Keyed by the call itself (`eq'): two turns may hold the same text.
                 (answer-of (cl-mapcar #'cons skill-calls answers)))
            (or (cl-loop for (call . answer) in answer-of
                         when (eq (car-safe answer) 'refused)
                         return (list 'refused (car call) (cdr answer)))
                (and (memq nil answers) (albedo-skills-gptel--late-text calls))
                (mapcar (lambda (call) (plist-get (cddr (assq call answer-of)) :input)) calls))))))))))

(defun albedo-skills-gptel--answers-or-why (origin calls deadline)
  "`albedo-skills-gptel--answers', or a string saying why the prompt goes as typed.
Nothing the server or its process does may stop a send: an error while
asking (the process stopped, say) is said once and the text goes as typed."
  (condition-case err
      (albedo-skills-gptel--answers origin calls deadline)
    (error (albedo-skills-gptel--why 'error "could not ask the server (%s), so %s went as typed"
                                     (error-message-string err) (caar calls)))))

(defun albedo-skills-gptel--late-text (commands)
  "The message for a server that did not answer in time about COMMANDS."
  (albedo-skills-gptel--why
   'timeout "the server did not answer within %.2g s, so %s went as typed (see albedo-skills-gptel-timeout)"
   (albedo-skills-gptel--timeout) (caar commands)))

(defun albedo-skills-gptel--why (reason format-string &rest args)
  "The message FORMAT-STRING and ARGS make, marked with REASON (a symbol).
REASON says which notice it is, so each is shown once: see
`albedo-skills-gptel--noticed'."
  (propertize (apply #'format format-string args) 'albedo-skills-gptel-reason reason))

(defvar albedo-skills-gptel--noticed nil
  "Reasons (`no-server', `timeout', ...) said since the server last answered.
With no server or no answer the prompt goes as typed and one notice says
why, not one per send (docs/design.md#9-other-chats-and-other-agents).")

(defun albedo-skills-gptel--notice (text)
  "Show TEXT after the command, unless its reason was said already.
Said already: since the server last answered."
  (let ((reason (get-text-property 0 'albedo-skills-gptel-reason text)))
    (unless (memq reason albedo-skills-gptel--noticed)
      (push reason albedo-skills-gptel--noticed)
      ;; After the command: gptel's own "Querying..." would hide a message shown now.
      (run-at-time 0 nil #'albedo-skills-gptel--say "%s" text))))

(defun albedo-skills-gptel-transform (fsm)
  "Rewrite each user turn of FSM's prompt that starts with a skill command.
An entry of `gptel-prompt-transform-functions': it runs in gptel's copy of
the chat, so the chat itself keeps what was typed.  Only gptel chat
buffers (`gptel-mode') are rewritten."
  (when (and (bound-and-true-p gptel-mode) (gptel-fsm-info fsm))
    (let* ((started (float-time))
           (turns (albedo-skills-gptel--turns))
           (calls (mapcar (lambda (turn) (cons (nth 2 turn) (nth 3 turn))) turns))
           (origin (plist-get (gptel-fsm-info fsm) :buffer)))
      (when turns
        (let* ((deadline (+ started (albedo-skills-gptel--timeout)))
               (result (albedo-skills-gptel--answers-or-why origin calls deadline)))
          (when (eq (car-safe result) 'refused)
            ;; The kept catalog may predate a change not announced yet: ask once more, afresh.
            (albedo-skills-gptel--forget-catalogs)
            (setq result (albedo-skills-gptel--answers-or-why origin calls deadline)))
          (setq albedo-skills-gptel-last-duration (- (float-time) started))
          (pcase result
            ((pred stringp) (albedo-skills-gptel--notice result))
            (`(refused ,command ,why)
             ;; A stale or invalid skill never gets a guessed activation: stop this send.
             (kill-buffer (current-buffer))
             (user-error "albedo-skills: %s was not sent: %s (M-x albedo-skills-gptel-reload, then send again)"
                         command why))
            (_
             (setq albedo-skills-gptel--noticed nil) ; the server answered: a later failure is said again
             (cl-loop for turn in turns         ; last first, so earlier positions stay valid
                      for input in result
                      when input
                      do (delete-region (nth 0 turn) (nth 1 turn))
                      (goto-char (nth 0 turn))
                      (insert input))
             (goto-char (point-max)))))))))

;;;; Completion and commands in the chat

(defun albedo-skills-gptel--command-bounds ()
  "(START . END) of a command being typed at a user turn's start at point, or nil."
  (when (and (> (point) (point-min)) (not (get-text-property (1- (point)) 'gptel)))
    (let ((turn-start (previous-single-property-change (point) 'gptel nil (point-min))))
      (save-excursion
        (save-restriction
          (narrow-to-region turn-start (point))
          (goto-char turn-start)
          (albedo-skills-gptel--skip-prompt-prefix)
          (when (looking-at "/[^[:space:]/]*\\'")
            (let ((start (point)))
              (widen)
              (forward-char 1)          ; past the `/': the name runs to white space or a `/'
              (skip-chars-forward "^[:space:]/")
              (cons start (point)))))))))

(defun albedo-skills-gptel-completion-at-point ()
  "Complete a skill command typed at a gptel turn's start.
The candidates are the skills of the server's catalog."
  (when-let ((bounds (albedo-skills-gptel--command-bounds)))
    (let* ((asked (eq this-command 'completion-at-point)) ; the key, not a completion UI while idle
           (deadline (+ (float-time) (albedo-skills-gptel--timeout)))
           (server (if asked
                       (albedo-skills-gptel--server-or-wait (current-buffer) deadline)
                     (albedo-skills-gptel--server (current-buffer)))))
      (if (or (null server) (eq server 'starting))
          (progn (when asked
                   (albedo-skills-gptel--say
                    (if server
                        "albedo-skills-ls is still starting for %s: complete again in a moment"
                      "no albedo-skills-ls server runs for %s: no skill to complete (M-x albedo-skills-gptel-connect)")
                    (albedo-skills-gptel--project-name (current-buffer))))
                 nil)
        (let ((entries (albedo-skills-gptel--skill-entries server deadline)))
          (when (and asked (not (listp entries)))
            (albedo-skills-gptel--say (if (eq entries 'timeout)
                                          "the server did not answer within %d s: complete again in a moment"
                                        "the server refused its catalog: %s")
                                      (if (eq entries 'timeout) (ceiling (albedo-skills-gptel--timeout)) entries)))
          (when (listp entries)
            (list (car bounds) (cdr bounds)
                  (mapcar (lambda (entry) (plist-get entry :command)) entries)
                  :exclusive 'no
                  :annotation-function
                  (lambda (command)
                    (when-let ((entry (cl-find command entries :key (lambda (e) (plist-get e :command))
                                               :test #'equal)))
                      (concat "  " (plist-get entry :description)))))))))))

(defun albedo-skills-gptel--complete-key (command)
  "COMMAND where a skill command is being typed, else nil.
Nil leaves the key to its usual binding."
  (and (albedo-skills-gptel--command-bounds) command))

(defvar albedo-skills-gptel-mode-map
  (let ((map (make-sparse-keymap)))
    ;; Only at a command: elsewhere M-TAB keeps its usual command (ispell's word completion in Markdown).
    (define-key map (kbd "C-M-i")
                `(menu-item "" completion-at-point :filter ,#'albedo-skills-gptel--complete-key))
    map)
  "Keys of `albedo-skills-gptel-mode'.")

(define-minor-mode albedo-skills-gptel-mode
  "Complete Albedo's skill commands at a gptel turn's start (\\[completion-at-point])."
  :lighter nil
  (if albedo-skills-gptel-mode
      (add-hook 'completion-at-point-functions #'albedo-skills-gptel-completion-at-point -50 t)
    (remove-hook 'completion-at-point-functions #'albedo-skills-gptel-completion-at-point t)))

(defun albedo-skills-gptel--follow-gptel-mode ()
  "Turn `albedo-skills-gptel-mode' on or off with `gptel-mode'.
A chat turned on starts its project's server, unless one runs or starts."
  (albedo-skills-gptel-mode (if gptel-mode 1 -1))
  (when gptel-mode
    (albedo-skills-gptel--auto-connect (current-buffer))
    (albedo-skills-gptel--prefetch-for (current-buffer))))

(defun albedo-skills-gptel-reload ()
  "Discover the skills again on the server of this chat's project (skills.reload)."
  (interactive)
  (let ((server (or (albedo-skills-gptel--server (current-buffer))
                    (user-error "albedo-skills: no albedo-skills-ls server runs for this chat's project"))))
    (pcase (car (albedo-skills-gptel--execute server '(("skills.reload"))
                                              (+ (float-time) (albedo-skills-gptel--timeout))))
      (`(ok . ,_) (albedo-skills-gptel--say "skills reloaded"))
      (`(refused . ,why) (albedo-skills-gptel--say "reload refused: %s" why))
      (_ (albedo-skills-gptel--say "the server did not answer the reload in time")))))

(with-eval-after-load 'gptel
  (add-hook 'gptel-prompt-transform-functions #'albedo-skills-gptel-transform)
  (add-hook 'gptel-mode-hook #'albedo-skills-gptel--follow-gptel-mode))

(provide 'albedo-skills-gptel)
;;; albedo-skills-gptel.el ends here
